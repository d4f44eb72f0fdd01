import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { authorizationRequest, formFields } from '../../shared/oauth/testing/client.ts';
import { loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * The attack round's findings on the merchant password (issue 29), black-box: real source addresses (127.0.x.y), a
 * proxy's X-Forwarded-For, a clock moved by the test. A guess is "real" when the password was checked (401); a guess
 * refused before that is a 429 with Retry-After.
 */
const PASSWORD = 'senha-do-lojista-de-teste';
let sandbox: RunningSandbox;
let offset = 0;
/** When set, the BFF's clock stands still there (plus `offset`): a test whose counts must not depend on how fast it runs. */
let frozenAt: number | undefined;
const started: RunningBff[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  frozenAt = undefined;
  await Promise.all(started.splice(0).map((bff) => bff.stop()));
});
afterAll(async () => {
  await sandbox?.close();
});

async function bffWith(env: Record<string, string> = {}): Promise<RunningBff> {
  const bff = await startBff(
    sandbox.url,
    { BFF_ADMIN_PASSWORD: PASSWORD, ...env },
    { now: () => (frozenAt ?? Date.now()) + offset },
  );
  started.push(bff);
  return bff;
}

const cookiesOf = (headers: Headers | Record<string, string | string[] | undefined>): string[] => {
  const raw = headers instanceof Headers ? headers.getSetCookie() : (headers['set-cookie'] ?? []);
  return (Array.isArray(raw) ? raw : [raw]).map((cookie) => cookie.split(';')[0] ?? '');
};

/** A browser's view of `/admin`: the login form's CSRF pair, and whatever cookies it holds. */
class AdminBrowser {
  cookies: string[] = [];
  private csrf = '';
  private readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  /** Forgets the `/admin` session (it expired, or the merchant logged out), keeping every other cookie. */
  endSession(): this {
    this.cookies = this.cookies.filter((cookie) => !cookie.startsWith('admin_session='));
    return this;
  }

  async open(): Promise<this> {
    const page = await fetch(`${this.url}/admin/agents`, { headers: { cookie: this.cookies.join('; ') } });
    this.keep(cookiesOf(page.headers));
    this.csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    return this;
  }

  /** Posts the login form from `address` (default: this machine), with extra headers (a proxy's X-Forwarded-For). */
  async login(password: string, address = '127.0.0.1', headers: Record<string, string> = {}) {
    const answer = await requestFrom(address, `${this.url}/admin/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.url,
        cookie: this.cookies.join('; '),
        ...headers,
      },
      body: new URLSearchParams({ csrf: this.csrf, password }).toString(),
    });
    this.keep(cookiesOf(answer.headers));
    // A login page answered again carries a fresh CSRF pair (its cookie was just kept).
    this.csrf = /name="csrf" value="([^"]+)"/.exec(answer.text)?.[1] ?? this.csrf;
    return answer;
  }

  private keep(set: string[]): void {
    for (const cookie of set) {
      const name = cookie.split('=')[0];
      this.cookies = [...this.cookies.filter((held) => held.split('=')[0] !== name), cookie];
    }
  }
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

describe('the merchant password under guessing (BFF /admin/login and /oauth/login: one account)', () => {
  it('lets 250 IPv4 addresses make at most 20 real guesses, then 429 with Retry-After even for the right password; the browser that logged in before still gets in', async () => {
    const bff = await bffWith();
    const merchant = await new AdminBrowser(bff.url).open();
    expect((await merchant.login(PASSWORD)).status).toBe(303);
    const attacker = await new AdminBrowser(bff.url).open();
    const statuses: number[] = [];
    for (let i = 0; i < 250; i++) {
      statuses.push((await attacker.login(`palpite-${i}-errado`, loopbackAddress(i))).status);
    }
    expect(tally(statuses)).toEqual({ 401: 20, 429: 230 });
    const stranger = await new AdminBrowser(bff.url).open();
    const right = await stranger.login(PASSWORD, loopbackAddress(400));
    expect(right.status).toBe(429);
    const wait = Number(right.headers['retry-after']);
    expect(wait).toBeGreaterThan(3_000);
    expect(wait).toBeLessThanOrEqual(3_600);
    expect(right.text).toContain('Muitas tentativas');
    // The merchant's browser holds the device cookie of its earlier login: the attack does not lock it out.
    await merchant.endSession().open();
    expect((await merchant.login(PASSWORD)).status).toBe(303);
    // An hour after the 20th failure, a new browser may try again.
    offset += 3_600_000;
    expect((await stranger.login(PASSWORD, loopbackAddress(401))).status).toBe(303);
  }, 60_000);

  it('counts 50 IPv6 addresses of one /64 as one address (behind a proxy named by its address)', async () => {
    // The clock stands still: the first failure's 1 s slow-down covers all 50, however slowly the machine sends them.
    frozenAt = Date.now();
    const bff = await bffWith({ BFF_TRUST_PROXY: 'loopback' });
    const attacker = await new AdminBrowser(bff.url).open();
    const statuses: number[] = [];
    for (let i = 1; i <= 50; i++) {
      const xff = { 'x-forwarded-for': `2001:db8:77:7:${i.toString(16)}::1` };
      statuses.push((await attacker.login(`palpite-${i}-errado`, '127.0.0.1', xff)).status);
    }
    expect(tally(statuses)).toEqual({ 401: 1, 429: 49 });
    // Another /64 is another address.
    const other = await attacker.login('outro-palpite', '127.0.0.1', {
      'x-forwarded-for': '2001:db8:77:8::1',
    });
    expect(other.status).toBe(401);
  });

  it('with BFF_TRUST_PROXY=1 reached directly, 1,000 guesses with rotating X-Forwarded-For, 50 at a time over /admin/login and /oauth/login, make exactly 20 real ones', async () => {
    const bff = await bffWith({ BFF_TRUST_PROXY: '1' });
    const admin = await new AdminBrowser(bff.url).open();
    const { query } = await authorizationRequest(bff.url);
    const authorize = await fetch(`${bff.url}/authorize?${new URLSearchParams(query)}`);
    const oauthCookie = cookiesOf(authorize.headers).join('; ');
    const fields = formFields(await authorize.text());
    const oauthGuess = (i: number) =>
      requestFrom('127.0.0.1', `${bff.url}/oauth/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: bff.url,
          cookie: oauthCookie,
          'x-forwarded-for': `198.18.${i >> 8}.${i & 255}`,
        },
        body: new URLSearchParams({ ...fields, password: `palpite-${i}` }).toString(),
      });
    const statuses: number[] = [];
    for (let from = 0; from < 1_000; from += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, k) => {
          const i = from + k;
          return i % 2 === 0
            ? admin.login(`palpite-${i}`, '127.0.0.1', { 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` })
            : oauthGuess(i);
        }),
      );
      statuses.push(...batch.map((answer) => answer.status));
    }
    // Each guess reserves its place in the account's budget before the password is checked: exactly 20 checked.
    expect(tally(statuses)).toEqual({ 401: 20, 429: 980 });
  }, 60_000);

  it('trusts only a device cookie it signed for this account and password: a tampered one, or one from before a password change, is a stranger', async () => {
    const bff = await bffWith();
    const merchant = await new AdminBrowser(bff.url).open();
    expect((await merchant.login(PASSWORD)).status).toBe(303);
    const device = merchant.cookies.find((cookie) => cookie.startsWith('login_device_'));
    expect(device).toMatch(/^login_device_[0-9a-f]{16}=[A-Za-z0-9_.-]+$/);
    const attacker = await new AdminBrowser(bff.url).open();
    for (let i = 0; i < 20; i++) await attacker.login(`palpite-${i}`, loopbackAddress(i));
    const tampered = await new AdminBrowser(bff.url).open();
    tampered.cookies.push(`${device?.slice(0, -1)}${device?.endsWith('A') ? 'B' : 'A'}`);
    expect((await tampered.login(PASSWORD, loopbackAddress(300))).status).toBe(429);
    // Another BFF (another password) does not take this one's cookie, even for the same account name.
    const other = await bffWith({ BFF_ADMIN_PASSWORD: `${PASSWORD}-nova` });
    const foreign = await new AdminBrowser(other.url).open();
    for (let i = 0; i < 20; i++) await foreign.login(`palpite-${i}`, loopbackAddress(i));
    foreign.cookies.push(device ?? '');
    expect((await foreign.login(`${PASSWORD}-nova`, loopbackAddress(301))).status).toBe(429);
  }, 60_000);

  it("gives a device cookie that fails 20 times no more than a stranger gets (OWASP: it becomes untrusted), without locking the account's other devices", async () => {
    const bff = await bffWith();
    const stolen = await new AdminBrowser(bff.url).open();
    expect((await stolen.login(PASSWORD)).status).toBe(303);
    const merchant = await new AdminBrowser(bff.url).open();
    expect((await merchant.login(PASSWORD)).status).toBe(303);
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) {
      await stolen.endSession().open();
      statuses.push((await stolen.login(`palpite-${i}`, loopbackAddress(i))).status);
    }
    // 20 on the device's own count, then 20 on the account's count for strangers, then nothing.
    expect(tally(statuses)).toEqual({ 401: 40, 429: 5 });
    await merchant.endSession().open();
    expect((await merchant.login(PASSWORD)).status).toBe(303);
  }, 60_000);

  it('shares the counts between instances on one storage: 10 failures on each, and the next stranger is refused on both', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-logins-'));
    const first = await bffWith({ BFF_DATA_DIR: dataDir });
    const second = await bffWith({ BFF_DATA_DIR: dataDir });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const browser = await new AdminBrowser(i % 2 ? first.url : second.url).open();
      statuses.push((await browser.login(`palpite-${i}`, loopbackAddress(i))).status);
    }
    expect(tally(statuses)).toEqual({ 401: 20, 429: 2 });
  });
});
