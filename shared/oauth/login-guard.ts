import { type SenderOf, senderKey } from '../security/address.ts';
import type { CookieJar } from '../security/cookie.ts';
import { DeviceCookies } from '../security/device-cookie.ts';
import type { FailureRule, LoginFailures } from './login-failures.ts';

/** The bounds of every login of both servers (docs/security.md, "Logins"). */
export const LOGIN_LIMITS = {
  /** Failed logins an account takes per window from browsers it does not know (and each known browser on its own). */
  failuresPerAccount: 20,
  windowMs: 3_600_000,
  /** Per address (IPv4, IPv6 /64), after each failure the next try waits 1 s, doubling, at most 5 min. */
  addressFirstWaitMs: 1_000,
  addressMaxWaitMs: 300_000,
} as const;

const ACCOUNT_RULE: FailureRule = {
  windowMs: LOGIN_LIMITS.windowMs,
  extendFrom: LOGIN_LIMITS.failuresPerAccount,
};
/** An address's failures are forgotten an hour after its latest one. */
const ADDRESS_RULE: FailureRule = { windowMs: LOGIN_LIMITS.windowMs, extendFrom: 1 };

/** A login attempt the guard let through: what its outcome must be recorded against. */
export interface LoginTicket {
  account: string;
  address: string;
  /** The device id of a valid device cookie for the account, when the browser sent one that is not locked. */
  device: string | undefined;
}

export type LoginAdmission = ({ ok: true } & LoginTicket) | { ok: false; retryAfterSeconds: number };

/** A login request as far as the guard reads it (an Express `Request` is one): its sender and its cookies. */
export interface LoginRequest extends SenderOf {
  headers: { cookie?: string | undefined };
}

export interface LoginGuardOptions {
  failures: LoginFailures;
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
 * - Any other browser is a stranger: it waits out its address's slow-down (1 s after a failure, doubling, at most
 *   5 min; IPv6 per /64), and all strangers together have 20 failures an hour per account, then `429` with
 *   `Retry-After` until an hour after the 20th — the right password included. A device that used up its own 20 is a
 *   stranger again.
 * - An attempt is counted against its account before the password is checked and taken back when it was right, so
 *   concurrent guesses on any number of instances never get more than the budget checked.
 *
 * Counts live in `LoginFailures` (shared by every instance the store is shared by).
 */
export class LoginGuard {
  readonly cookies: DeviceCookies;
  private readonly failures: LoginFailures;
  private readonly now: () => number;

  constructor(options: LoginGuardOptions) {
    this.failures = options.failures;
    this.now = options.now ?? Date.now;
    this.cookies = new DeviceCookies({
      secret: options.secret,
      secure: options.secureCookies,
      now: this.now,
    });
  }

  /** Before the credentials are checked: refused (wait), or a ticket to record the outcome with. */
  async admit(req: LoginRequest, account: string): Promise<LoginAdmission> {
    const now = this.now();
    const address = senderKey(req);
    const device = this.cookies.read(req.headers.cookie, account);
    if (device !== undefined && (await this.reserve(`device:${device}`, now)) === 0) {
      return { ok: true, account, address, device };
    }
    const held = await this.failures.get(`address:${address}`, now);
    const slowedFor = held
      ? held.last +
        Math.min(
          LOGIN_LIMITS.addressMaxWaitMs,
          LOGIN_LIMITS.addressFirstWaitMs * 2 ** Math.min(held.count - 1, 30),
        ) -
        now
      : 0;
    if (slowedFor > 0) return refused(slowedFor);
    const lockedFor = await this.reserve(`account:${account}`, now);
    if (lockedFor > 0) return refused(lockedFor);
    return { ok: true, account, address, device: undefined };
  }

  /** The credentials were wrong: the reserved failure stays, and a stranger's address is slowed down. */
  async failed(ticket: LoginTicket): Promise<void> {
    if (ticket.device === undefined)
      await this.failures.add(`address:${ticket.address}`, this.now(), ADDRESS_RULE);
  }

  /** The credentials were right: the reserved failure is taken back, and the browser gets a new device cookie. */
  async succeeded(ticket: LoginTicket, res: CookieJar): Promise<void> {
    const now = this.now();
    if (ticket.device !== undefined) {
      await this.failures.release(`device:${ticket.device}`, now);
    } else {
      await this.failures.release(`account:${ticket.account}`, now);
      await this.failures.clear(`address:${ticket.address}`);
    }
    this.cookies.issue(res, ticket.account);
  }

  /** Forgets every count (the sandbox's reset). */
  clear(): Promise<void> {
    return this.failures.clearAll();
  }

  /**
   * Counts one attempt against a budget of 20 before it is tried; answers 0 when it may go on, else the ms until
   * the budget's window ends. A budget already spent is not written to again (a flood of refused attempts costs
   * reads only).
   */
  private async reserve(key: string, now: number): Promise<number> {
    const limit = LOGIN_LIMITS.failuresPerAccount;
    const before = await this.failures.get(key, now);
    if (before && before.count >= limit) return before.until - now;
    const after = await this.failures.add(key, now, ACCOUNT_RULE);
    return after.count > limit ? after.until - now : 0;
  }
}

function refused(ms: number): LoginAdmission {
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
}

/** What a refused login reads: the wait in seconds, or in minutes once it is longer than two. */
export function waitText(seconds: number): string {
  const wait = seconds > 120 ? `${Math.ceil(seconds / 60)} min` : `${seconds} s`;
  return `Muitas tentativas. Aguarde ${wait} e tente de novo.`;
}
