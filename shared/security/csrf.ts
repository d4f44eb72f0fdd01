import { type CookieJar, readCookie, setStrictCookie } from './cookie.ts';
import { randomToken, sameSecret } from './hash.ts';
import { type Arrival, type OriginPolicy, originAllowed } from './origin-policy.ts';

/** Why a form post is refused: another site's page sent it, or its token is missing or wrong. */
export type CsrfRefusal = 'foreign_origin' | 'bad_token';

/** A token as `randomToken` makes them: anything shorter was not issued here. */
const TOKEN_LENGTH = 43;

/**
 * Whether a state-changing request comes from one of this server's own pages, by what the browser says of it: an
 * `Origin` must be allowed by the policy (`null`, sent by sandboxed frames and `no-referrer` pages, never is); without
 * one (some clients), `Sec-Fetch-Site`, when sent, must be `same-origin` or `none`. A request with neither (a script,
 * an old browser) is judged by its token alone.
 */
export function fromOwnPage(policy: OriginPolicy, arrival: Arrival): boolean {
  const origin = arrival.headers.origin;
  if (origin !== undefined) return originAllowed(policy, arrival, origin);
  const site = arrival.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function tokenMatches(expected: string | undefined, sent: unknown): boolean {
  return (
    typeof expected === 'string' &&
    typeof sent === 'string' &&
    expected.length >= TOKEN_LENGTH &&
    sameSecret(expected, sent)
  );
}

export interface CsrfGuardOptions {
  /** The double-submit cookie: its name and the path of the forms it serves (`oauth_csrf` on `/oauth`). */
  cookie: string;
  path: string;
  /** `Secure` cookies (an https public URL). */
  secure: boolean;
  /** Whose pages may post: this server's public origin and its own loopback address. */
  origins: OriginPolicy;
}

/**
 * CSRF protection of every HTML form of both servers (OAuth login and consent, `/admin`): the post must come from our
 * own page (`fromOwnPage`) and carry a token, compared in constant time — before a session exists, a double-submit
 * token (random, in a `SameSite=Strict`, `HttpOnly` cookie and in the form); after, the session's own token.
 */
export class CsrfGuard {
  readonly #options: CsrfGuardOptions;

  constructor(options: CsrfGuardOptions) {
    this.#options = options;
  }

  /** A new double-submit token: set in the cookie here, to be put in the form as its `csrf` field. */
  issue(res: CookieJar): string {
    const token = randomToken();
    const { cookie: name, path, secure } = this.#options;
    setStrictCookie(res, { name, value: token, path, secure });
    return token;
  }

  /** Why a post before login is refused (its `csrf` field against the cookie), or undefined when it may proceed. */
  checkDoubleSubmit(req: Arrival, sent: unknown): CsrfRefusal | undefined {
    return this.#check(req, readCookie(req.headers.cookie, this.#options.cookie), sent);
  }

  /** Why a post in a session is refused (its `csrf` field against the session's token), or undefined. */
  checkSession(req: Arrival, sessionToken: string | undefined, sent: unknown): CsrfRefusal | undefined {
    return this.#check(req, sessionToken, sent);
  }

  #check(req: Arrival, expected: string | undefined, sent: unknown): CsrfRefusal | undefined {
    if (!fromOwnPage(this.#options.origins, req)) return 'foreign_origin';
    return tokenMatches(expected, sent) ? undefined : 'bad_token';
  }
}
