import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorizationRequest, formFields } from '../../shared/oauth/testing/client.ts';
import { loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

/**
 * The sandbox's OAuth login under guessing (issue 29): each fixture merchant's e-mail is an account with its own
 * budget of 20 failures an hour; the guesses come from real distinct source addresses (127.0.x.y).
 */
let sandbox: RunningSandbox;
const offset = 0;
beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.now() + offset });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control('reset');
});

const cookiesOf = (set: string | string[] | undefined): string[] =>
  (Array.isArray(set) ? set : set ? [set] : []).map((cookie) => cookie.split(';')[0] ?? '');

/** A browser on the sandbox's login page for a fresh authorization request; it keeps the cookies it is given. */
class LoginBrowser {
  cookies: string[] = [];
  private fields: Record<string, string> = {};

  async open(): Promise<this> {
    const { query } = await authorizationRequest(sandbox.url);
    const page = await fetch(`${sandbox.url}/authorize?${new URLSearchParams(query)}`, {
      headers: { cookie: this.cookies.join('; ') },
    });
    this.keep(page.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? ''));
    this.fields = formFields(await page.text());
    return this;
  }

  async login(email: string, password: string, address = '127.0.0.1') {
    const answer = await requestFrom(address, `${sandbox.url}/oauth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: sandbox.url,
        cookie: this.cookies.join('; '),
      },
      body: new URLSearchParams({ ...this.fields, email, password }).toString(),
    });
    this.keep(cookiesOf(answer.headers['set-cookie']));
    return answer;
  }

  private keep(set: string[]): void {
    for (const cookie of set) {
      const name = cookie.split('=')[0];
      this.cookies = [...this.cookies.filter((held) => held.split('=')[0] !== name), cookie];
    }
  }
}

describe('the sandbox login under guessing (one budget per fixture login)', () => {
  it("lets 250 addresses make at most 20 real guesses at loja-demo's password; then 429 for strangers, while its merchant's browser and another store's merchant still log in", async () => {
    const merchant = await new LoginBrowser().open();
    expect((await merchant.login('loja-demo@sandbox.example', 'sandbox')).status).toBe(200);
    const attacker = await new LoginBrowser().open();
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 250; i++) {
      const { status } = await attacker.login(
        'loja-demo@sandbox.example',
        `palpite-${i}`,
        loopbackAddress(i),
      );
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    expect(statuses).toEqual({ 401: 20, 429: 230 });
    const stranger = await new LoginBrowser().open();
    const right = await stranger.login('loja-demo@sandbox.example', 'sandbox', loopbackAddress(300));
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(3_000);
    // Another account is untouched, and the merchant's own browser (its device cookie) is let in.
    expect((await stranger.login('sem-plano@sandbox.example', 'sandbox', loopbackAddress(301))).status).toBe(
      200,
    );
    await merchant.open();
    const again = await merchant.login('loja-demo@sandbox.example', 'sandbox');
    expect(again.status).toBe(200);
    expect(again.text).toContain('Autorizar acesso');
  }, 60_000);

  it('keeps the budgets apart: a device cookie of one merchant does not let a stranger into another account', async () => {
    const holder = await new LoginBrowser().open();
    expect((await holder.login('sem-plano@sandbox.example', 'sandbox')).status).toBe(200);
    const attacker = await new LoginBrowser().open();
    for (let i = 0; i < 20; i++)
      await attacker.login('loja-demo@sandbox.example', `x${i}`, loopbackAddress(i));
    await holder.open();
    expect((await holder.login('loja-demo@sandbox.example', 'sandbox', loopbackAddress(50))).status).toBe(
      429,
    );
    // /_sandbox/reset forgets the counts.
    await sandbox.control('reset');
    await holder.open();
    expect((await holder.login('loja-demo@sandbox.example', 'sandbox', loopbackAddress(51))).status).toBe(
      200,
    );
  }, 60_000);
});
