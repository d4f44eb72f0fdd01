import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type CookieJar, readCookie, setStrictCookie } from './cookie.ts';
import { sha256Hex } from './hash.ts';

/** How long a browser stays known after a successful login (each later login renews it): 90 days. */
const MAX_AGE_MS = 90 * 86_400_000;

/**
 * OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): after a successful login the
 * browser gets a cookie naming the account, signed with the server's key, so a later login from it is told apart
 * from a stranger's: strangers share the account's budget of failures, a known browser has its own. The value is
 * `<issued, base36 s>.<random id>.<HMAC-SHA256>`; the id names the device in the failure counts. One cookie per
 * account (`login_device_<16 hex of the account's SHA-256>`), `HttpOnly`, `SameSite=Strict`, path `/`.
 */
export class DeviceCookies {
  readonly #secret: Buffer;
  readonly #secure: boolean;
  readonly #now: () => number;

  constructor(options: { secret: Buffer | string; secure: boolean; now?: () => number }) {
    this.#secret = Buffer.from(options.secret);
    this.#secure = options.secure;
    this.#now = options.now ?? Date.now;
  }

  /** The cookie's name for an account. */
  static nameFor(account: string): string {
    return `login_device_${sha256Hex(account).slice(0, 16)}`;
  }

  /** Sets a new device cookie for the account on the response; answers its device id. */
  issue(res: CookieJar, account: string): string {
    const issued = Math.floor(this.#now() / 1000).toString(36);
    const id = randomBytes(16).toString('base64url');
    setStrictCookie(res, {
      name: DeviceCookies.nameFor(account),
      value: `${issued}.${id}.${this.#sign(account, issued, id).toString('base64url')}`,
      path: '/',
      secure: this.#secure,
      maxAgeSeconds: MAX_AGE_MS / 1000,
    });
    return id;
  }

  /** The device id of the account's cookie in a `Cookie` header when we signed it and it has not expired. */
  read(header: string | undefined, account: string): string | undefined {
    const value = readCookie(header, DeviceCookies.nameFor(account));
    const [issued = '', id = '', signature = '', ...rest] = (value ?? '').split('.');
    if (rest.length > 0 || !/^[0-9a-z]{1,10}$/.test(issued) || !/^[\w-]{22}$/.test(id)) return undefined;
    // Only the one canonical spelling of the signature: a changed character never decodes to the same bytes.
    const presented = Buffer.from(signature, 'base64url');
    if (presented.toString('base64url') !== signature) return undefined;
    const expected = this.#sign(account, issued, id);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
    const age = this.#now() - Number.parseInt(issued, 36) * 1000;
    return age >= -60_000 && age <= MAX_AGE_MS ? id : undefined;
  }

  #sign(account: string, issued: string, id: string): Buffer {
    return createHmac('sha256', this.#secret).update(`device\n${account}\n${issued}\n${id}`).digest();
  }
}
