import { beforeEach, describe, expect, it } from 'vitest';
import type { CookieJar } from '../security/cookie.ts';
import { LOGIN_LIMITS, LoginGuard, type LoginRequest, type LoginTicket, waitText } from './login-guard.ts';

/**
 * The one login rule of both servers on its own, with a clock the test moves and the counts in memory (the guard's own
 * windowed counter): strangers slowed per address and sharing the account's budget, known browsers (device cookies)
 * with budgets of their own. bff/oauth/login-failures.test.ts states it over the shared counters (Redis, node:sqlite,
 * PostgreSQL); bff/oauth/oauth.test.ts and the admin login tests through the login pages.
 */
const T0 = 1_763_800_000_000;
const ACCOUNT = 'lojista@loja.example';
let now = T0;
let guard: LoginGuard;

beforeEach(() => {
  now = T0;
  guard = new LoginGuard({
    secret: 'a-device-cookie-secret',
    secureCookies: true,
    now: () => now,
  });
});

/** A request from an address, with a `Cookie` header when given. */
const from = (ip: string, cookie?: string): LoginRequest => ({ ip, socket: {}, headers: { cookie } });

/** A response that keeps the cookies set on it; `cookie` is what the browser sends back. */
function browser() {
  const set: string[] = [];
  const jar: CookieJar = { appendHeader: (_name, value) => set.push(value) };
  return { jar, set, cookie: () => set.map((header) => header.split(';')[0]).join('; ') };
}

async function admitted(req: LoginRequest, account = ACCOUNT): Promise<LoginTicket> {
  const admission = await guard.admit(req, account);
  if (!admission.ok) throw new Error(`refused for ${admission.retryAfterSeconds} s`);
  return admission;
}

const waitOf = async (req: LoginRequest, account = ACCOUNT) => {
  const admission = await guard.admit(req, account);
  return admission.ok ? 0 : admission.retryAfterSeconds;
};

/** A wrong password from a fresh address each time (no slow-down), `n` times. */
async function strangersFail(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await guard.failed(await admitted(from(`198.51.100.${i + 1}`)));
}

describe('LoginGuard, strangers', () => {
  it('lets a stranger try, naming the account and address to count against, with no device', async () => {
    expect(await guard.admit(from('203.0.113.7'), ACCOUNT)).toEqual({
      ok: true,
      account: ACCOUNT,
      address: '203.0.113.7',
      device: undefined,
      hit: expect.stringMatching(/^[\w-]{36}$/),
    });
  });

  it('slows an address down after each failure: 1 s, then 2, 4… doubling, at most 5 minutes', async () => {
    const address = from('203.0.113.7');
    const waits: number[] = [];
    for (let i = 0; i < 11; i++) {
      await guard.failed(await admitted(address));
      const wait = await waitOf(address);
      waits.push(wait);
      now += wait * 1000;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
  });

  it('lets the address try again exactly when its wait ends', async () => {
    const address = from('203.0.113.7');
    await guard.failed(await admitted(address));
    now += LOGIN_LIMITS.addressFirstWaitMs - 1;
    expect(await waitOf(address)).toBe(1);
    now += 1;
    expect(await waitOf(address)).toBe(0);
  });

  it('slows down every address of one IPv6 /64 together, and no other address', async () => {
    await guard.failed(await admitted(from('2001:db8:1:2::a')));
    expect(await waitOf(from('2001:db8:1:2:ffff::1'))).toBe(1);
    expect(await waitOf(from('2001:db8:1:3::a'))).toBe(0);
    expect(await waitOf(from('203.0.113.8'))).toBe(0);
  });

  it('gives all strangers 20 failures an hour per account, then refuses even the right password until an hour after the 20th', async () => {
    await strangersFail(19);
    now += 60_000;
    await strangersFail(1);
    const stranger = from('192.0.2.200');
    expect(await waitOf(stranger)).toBe(3_600);
    // refused tries count nothing more: half an hour later, half an hour is left
    now += 1_800_000;
    expect(await waitOf(stranger)).toBe(1_800);
    now += 1_800_000 - 1_000;
    expect(await waitOf(stranger)).toBe(1);
    now += 1_000;
    expect(await waitOf(stranger)).toBe(0);
    // another account is not touched
    now = T0 + 60_000;
    expect(await waitOf(from('192.0.2.201'), 'outra@loja.example')).toBe(0);
  });

  it('counts an attempt before the password is checked: of 25 at once, 20 are let through', async () => {
    const admissions = await Promise.all(
      Array.from({ length: 25 }, (_, i) => guard.admit(from(`198.51.100.${i + 1}`), ACCOUNT)),
    );
    expect(admissions.filter((a) => a.ok)).toHaveLength(20);
    // the 5 over the budget wait until an hour after it was spent
    expect(admissions.filter((a) => !a.ok)).toEqual(Array(5).fill({ ok: false, retryAfterSeconds: 3_600 }));
  });

  it("counts an address's failures for ten hours: failures 55 minutes apart keep doubling, as a count forgotten an hour after the latest did", async () => {
    const address = from('203.0.113.7');
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      await guard.failed(await admitted(address));
      waits.push(await waitOf(address));
      now += 55 * 60_000;
    }
    // An hour's window would have held two of them at a time: 2 s from the second on.
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300]);
  });

  it("forgets an address's failure ten hours after it", async () => {
    const address = from('203.0.113.7');
    await guard.failed(await admitted(address));
    now += LOGIN_LIMITS.addressWindowMs - 1;
    await guard.failed(await admitted(address));
    expect(await waitOf(address)).toBe(2);
    now += 1;
    // The first left the window; the second (1 ms old) is the only one.
    expect(await waitOf(address)).toBe(1);
    now += LOGIN_LIMITS.addressWindowMs;
    await guard.failed(await admitted(address));
    expect(await waitOf(address)).toBe(1);
  });

  it("keeps an address's slow-down after a right password: that browser is known from then on, another behind the address still waits", async () => {
    const address = from('203.0.113.7');
    await guard.failed(await admitted(address));
    now += 1_000;
    const merchant = browser();
    await guard.succeeded(await admitted(address), merchant.jar);
    await guard.failed(await admitted(address));
    // The second failure of the address: 2 s, not 1 (a right password no longer starts it over).
    expect(await waitOf(address)).toBe(2);
    expect(await admitted(from('203.0.113.7', merchant.cookie()))).toMatchObject({
      device: expect.any(String),
    });
  });

  it('takes back a right password: it never counts against the account', async () => {
    const address = from('203.0.113.7');
    await guard.failed(await admitted(address));
    now += 1_000;
    const res = browser();
    await guard.succeeded(await admitted(address), res.jar);
    expect(await waitOf(address)).toBe(0);
    // The failure and the try just above are 2 of the account's 20: 18 more fit, the right login took none
    await strangersFail(18);
    expect(await waitOf(from('192.0.2.100'))).toBe(3_600);
  });
});

describe('LoginGuard, the lock of a spent budget', () => {
  it('holds an hour from the 20th failure, though the 1st leaves the window earlier', async () => {
    await strangersFail(1);
    now += 1_800_000;
    await strangersFail(19);
    // A window alone would let one more in when the 1st leaves, half an hour from now.
    now += 1_800_000;
    expect(await waitOf(from('192.0.2.1'))).toBe(1_800);
    now += 1_800_000;
    expect(await waitOf(from('192.0.2.2'))).toBe(0);
  });

  it('is taken back with the right password that filled the budget: the next attempt fills it again', async () => {
    await strangersFail(19);
    await guard.succeeded(await admitted(from('192.0.2.99')), browser().jar);
    expect(await waitOf(from('192.0.2.100'))).toBe(0);
    // That attempt was the 20th: locked for an hour from it.
    expect(await waitOf(from('192.0.2.101'))).toBe(3_600);
  });

  it('holds on its own budget only: another account, and a known browser of this one, still try', async () => {
    const res = browser();
    await guard.succeeded(await admitted(from('203.0.113.50')), res.jar);
    await strangersFail(20);
    expect(await waitOf(from('192.0.2.1'))).toBe(3_600);
    expect(await waitOf(from('192.0.2.1'), 'outra@loja.example')).toBe(0);
    expect(await admitted(from('203.0.113.60', res.cookie()))).toMatchObject({ device: expect.any(String) });
  });
});

describe('LoginGuard, known browsers (device cookies)', () => {
  /** A browser that logged in once: its cookie for the account. */
  async function known(): Promise<string> {
    const res = browser();
    await guard.succeeded(await admitted(from('203.0.113.50')), res.jar);
    expect(res.set).toHaveLength(1);
    return res.cookie();
  }

  it('gives a browser a signed device cookie when its login succeeds, and knows it on its next login', async () => {
    const cookie = await known();
    const admission = await admitted(from('203.0.113.60', cookie));
    expect(admission.device).toMatch(/^[\w-]{22}$/);
    expect(await admitted(from('203.0.113.60', `${cookie}x`))).toMatchObject({ device: undefined });
    expect(await admitted(from('203.0.113.60', cookie), 'outra@loja.example')).toMatchObject({
      device: undefined,
    });
  });

  it('lets a known browser in while strangers have spent the account, and never slows its address', async () => {
    const cookie = await known();
    await strangersFail(20);
    expect(await waitOf(from('192.0.2.1'))).toBeGreaterThan(0);
    const device = from('203.0.113.60', cookie);
    await guard.failed(await admitted(device));
    expect(await admitted(device)).toMatchObject({ device: expect.any(String) });
  });

  it("never slows down a known browser's address for its failures", async () => {
    const cookie = await known();
    await guard.failed(await admitted(from('203.0.113.60', cookie)));
    expect(await waitOf(from('203.0.113.60'))).toBe(0);
  });

  it('gives each known browser 20 failures an hour of its own, then treats it as a stranger', async () => {
    const cookie = await known();
    const device = from('203.0.113.60', cookie);
    for (let i = 0; i < 20; i++) await guard.failed(await admitted(device));
    // its own budget is spent: a stranger now, with the account's budget (untouched) and its address's slow-down
    expect(await admitted(device)).toMatchObject({ device: undefined });
  });

  it("takes a known browser's right password back from its own budget, and renews its cookie", async () => {
    const cookie = await known();
    const device = from('203.0.113.60', cookie);
    for (let i = 0; i < 19; i++) await guard.failed(await admitted(device));
    const res = browser();
    await guard.succeeded(await admitted(device), res.jar);
    expect(res.set).toHaveLength(1);
    expect(await admitted(device)).toMatchObject({ device: expect.any(String) });
  });
});

describe('LoginGuard, bounded (docs/security.md, "State that grows with strangers")', () => {
  it("holds at most 10,000 addresses in memory after 20,000, and never pushes an account's count out", async () => {
    await strangersFail(19);
    await guard.failed(await admitted(from('203.0.113.1'), 'outra@loja.example'));
    for (let i = 0; i < 20_000; i++) {
      await guard.failed({
        account: ACCOUNT,
        address: `10.0.${i >> 8}.${i & 255}`,
        device: undefined,
        hit: '',
      });
    }
    // The first address is forgotten, the last one kept, and the account's 19 untouched by the flood.
    expect(await waitOf(from('203.0.113.1'), 'outra@loja.example')).toBe(0);
    expect(await waitOf(from('10.0.78.31'))).toBe(1);
    expect(await waitOf(from('192.0.2.1'))).toBe(0);
    expect(await waitOf(from('192.0.2.2'))).toBe(3_600);
  });
});

describe('LoginGuard.clear and waitText', () => {
  it('forgets every count', async () => {
    await strangersFail(20);
    await guard.clear();
    expect(await waitOf(from('192.0.2.1'))).toBe(0);
  });

  it('says the wait in seconds up to two minutes, then in whole minutes rounded up', () => {
    expect(waitText(1)).toBe('Muitas tentativas. Aguarde 1 s e tente de novo.');
    expect(waitText(120)).toBe('Muitas tentativas. Aguarde 120 s e tente de novo.');
    expect(waitText(121)).toBe('Muitas tentativas. Aguarde 3 min e tente de novo.');
    expect(waitText(3_600)).toBe('Muitas tentativas. Aguarde 60 min e tente de novo.');
  });
});
