import { randomUUID } from 'node:crypto';
import { type SenderOf, senderKey } from '../security/address.ts';
import type { CookieJar } from '../security/cookie.ts';
import { DeviceCookies } from '../security/device-cookie.ts';
import { MemoryCounter, type RateLimit, type WindowedCounter } from '../windowed-counter.ts';

/** The bounds of every login of both servers (docs/security.md, "Logins"). */
export const LOGIN_LIMITS = {
  /** Failed logins an account takes per window from browsers it does not know (and each known browser on its own). */
  failuresPerAccount: 20,
  windowMs: 3_600_000,
  /** Per address (IPv4, IPv6 /64), after each failure the next try waits 1 s, doubling, at most 5 min. */
  addressFirstWaitMs: 1_000,
  addressMaxWaitMs: 300_000,
  /**
   * How long an address's failures count towards its doubling: ten hours, so the count is never below what the rule
   * before the one counter gave (a count forgotten only an hour after the latest failure: the ten failures that reach
   * the 5-minute wait may span nine hours, each within an hour of the one before).
   */
  addressWindowMs: 36_000_000,
} as const;

/** An account's (or a known browser's) budget: 20 attempts in any hour. */
const BUDGET: RateLimit = { calls: LOGIN_LIMITS.failuresPerAccount, seconds: LOGIN_LIMITS.windowMs / 1000 };
/** A spent budget's lock: one hit, an hour long, from the attempt that spent it. */
const LOCK: RateLimit = { calls: 1, seconds: LOGIN_LIMITS.windowMs / 1000 };
/**
 * An address's failures (the doubling needs their count and the latest's time): 1,000, more than an address fails in
 * ten hours slowed as it is (about 130); should bursts that spend several accounts' budgets fill it, it waits for room.
 */
const ADDRESS: RateLimit = { calls: 1_000, seconds: LOGIN_LIMITS.addressWindowMs / 1000 };
/** The newest of an address's failures: `wait` for one hit in its window says when it leaves, hence when it was. */
const NEWEST: RateLimit = { calls: 1, seconds: ADDRESS.seconds };

/**
 * Login attempts counted in this process's memory (the sandbox; a BFF's fallback while Redis does not answer): at most
 * 10,000 keys per kind (the part before `:`), so a flood of addresses never pushes an account's count out.
 */
export function memoryLoginCounter(now?: () => number): MemoryCounter {
  return new MemoryCounter({ maxKeys: 10_000, ...(now ? { now } : {}) });
}

/** A login attempt the guard let through: what its outcome must be recorded against. */
export interface LoginTicket {
  account: string;
  address: string;
  /** The device id of a valid device cookie for the account, when the browser sent one that is not locked. */
  device: string | undefined;
  /** The attempt's hit in its budget (the account's, or the device's), taken back when the password was right. */
  hit: string;
}

export type LoginAdmission = ({ ok: true } & LoginTicket) | { ok: false; retryAfterSeconds: number };

/** A login request as far as the guard reads it (an Express `Request` is one): its sender and its cookies. */
export interface LoginRequest extends SenderOf {
  headers: { cookie?: string | undefined };
}

export interface LoginGuardOptions {
  /**
   * Where attempts are counted: the one windowed counter, shared by every instance (Redis, else the OAuth store's
   * database: `Backends.loginFailures`). Default: this process's memory, on `now`, which `clear` forgets.
   */
  counter?: WindowedCounter;
  /** Signs the device cookies: the same on every instance, secret (the BFF derives it from its secrets). */
  secret: Buffer | string;
  secureCookies: boolean;
  now?: () => number;
}

/**
 * Whether a login may be tried now, and what its outcome counts against — the one rule of the BFF's `/admin/login`
 * and the OAuth login of both servers, after OWASP's device cookies:
 *
 * - A browser with a valid device cookie for the account (from an earlier successful login) has its own budget of 20
 *   failures an hour; so an attack on the account never locks the merchant's own browsers out.
 * - Any other browser is a stranger: it waits out its address's slow-down (1 s after a failure, doubling with each
 *   failure of the address in the last ten hours, at most 5 min from its latest; IPv6 per /64), and all strangers
 *   together have 20 failures an hour per account, then `429` with `Retry-After` until an hour after the 20th — the
 *   right password included. A device that used up its own 20 is a stranger again.
 * - An attempt is counted against its account before the password is checked and taken back when it was right, so
 *   concurrent guesses on any number of instances never get more than the budget checked.
 *
 * A policy over the one windowed counter (shared/windowed-counter.ts), which counts nothing itself; each guarantee
 * there is a sliding window's, never weaker than the counts it replaced (issue 49):
 *
 * - A budget is never more than 20 attempts within any hour (`login-account:`, `login-device:`), and the attempt
 *   that fills it takes a lock (`login-account-lock:`, `login-device-lock:`, one hit an hour long): locked an hour
 *   from the 20th, as before, though the window alone would free one attempt when the 1st leaves.
 * - An address's failures (`login-address:`) count for ten hours rather than until an hour passes without one, and a
 *   right password no longer starts the slow-down over: the browser that gave it gets a device cookie and is never
 *   slowed again, while another browser behind the same address keeps waiting.
 */
export class LoginGuard {
  readonly cookies: DeviceCookies;
  private readonly counter: WindowedCounter;
  /** The counter when it is this guard's own, in memory (the sandbox's): what `clear` forgets. */
  private readonly own: MemoryCounter | undefined;

  constructor(options: LoginGuardOptions) {
    const now = options.now ?? Date.now;
    if (options.counter) {
      this.counter = options.counter;
      this.own = undefined;
    } else {
      this.own = memoryLoginCounter(now);
      this.counter = this.own;
    }
    this.cookies = new DeviceCookies({ secret: options.secret, secure: options.secureCookies, now });
  }

  /** Before the credentials are checked: refused (wait), or a ticket to record the outcome with. */
  async admit(req: LoginRequest, account: string): Promise<LoginAdmission> {
    const address = senderKey(req);
    const hit = randomUUID();
    const device = this.cookies.read(req.headers.cookie, account);
    if (device !== undefined && (await this.reserve('device', device, hit)) === 0) {
      return { ok: true, account, address, device, hit };
    }
    const slowedFor = await this.slowedFor(address);
    if (slowedFor > 0) return refused(slowedFor);
    const lockedFor = await this.reserve('account', account, hit);
    if (lockedFor > 0) return refused(lockedFor);
    return { ok: true, account, address, device: undefined, hit };
  }

  /** The credentials were wrong: the reserved attempt stays counted, and a stranger's address is slowed down. */
  async failed(ticket: LoginTicket): Promise<void> {
    if (ticket.device === undefined) await this.counter.take(`login-address:${ticket.address}`, ADDRESS);
  }

  /** The credentials were right: the reserved attempt is taken back, and the browser gets a new device cookie. */
  async succeeded(ticket: LoginTicket, res: CookieJar): Promise<void> {
    const { budget, lock } =
      ticket.device === undefined ? keysOf('account', ticket.account) : keysOf('device', ticket.device);
    await this.counter.release(budget, ticket.hit);
    // The lock, when this attempt took it: the budget has room again.
    await this.counter.release(lock, ticket.hit);
    this.cookies.issue(res, ticket.account);
  }

  /** Forgets every count of the guard's own memory (the sandbox's reset); a shared counter is not its to clear. */
  async clear(): Promise<void> {
    this.own?.clear();
  }

  /**
   * The ms until an address may try again: its latest failure plus 1 s doubled for each earlier one in its window
   * (at most 5 min), or until its window has room.
   */
  private async slowedFor(address: string): Promise<number> {
    const key = `login-address:${address}`;
    const newestLeavesIn = await this.counter.wait(key, NEWEST);
    if (newestLeavesIn === 0) return 0;
    const failures = await this.counter.count(key, ADDRESS);
    if (failures >= ADDRESS.calls) return this.counter.wait(key, ADDRESS);
    const slowdown = Math.min(
      LOGIN_LIMITS.addressMaxWaitMs,
      LOGIN_LIMITS.addressFirstWaitMs * 2 ** Math.min(Math.max(failures, 1) - 1, 30),
    );
    // The newest failure was `window - newestLeavesIn` ago.
    return slowdown - (LOGIN_LIMITS.addressWindowMs - newestLeavesIn);
  }

  /**
   * Counts one attempt against a budget of 20 before it is tried; answers 0 when it may go on, else the ms until it
   * may. A locked or full budget is not written to (a flood of refused attempts costs reads only).
   */
  private async reserve(kind: 'account' | 'device', id: string, hit: string): Promise<number> {
    const { budget, lock } = keysOf(kind, id);
    const lockedFor = await this.counter.wait(lock, LOCK);
    if (lockedFor > 0) return lockedFor;
    const taken = await this.counter.take(budget, BUDGET, hit);
    if (!taken.ok) return taken.retryAfterSeconds * 1000;
    // This attempt filled the budget (or one beside it did): locked an hour from now.
    if ((await this.counter.wait(budget, BUDGET)) > 0) await this.counter.take(lock, LOCK, hit);
    return 0;
  }
}

/** The keys of an account's or a known browser's budget and of its lock (each kind an LRU of its own in memory). */
function keysOf(kind: 'account' | 'device', id: string): { budget: string; lock: string } {
  return { budget: `login-${kind}:${id}`, lock: `login-${kind}-lock:${id}` };
}

function refused(ms: number): LoginAdmission {
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
}

/** What a refused login reads: the wait in seconds, or in minutes once it is longer than two. */
export function waitText(seconds: number): string {
  const wait = seconds > 120 ? `${Math.ceil(seconds / 60)} min` : `${seconds} s`;
  return `Muitas tentativas. Aguarde ${wait} e tente de novo.`;
}
