/** Where a cookie is set: a response (Node's and Express's both have `appendHeader`). */
export interface CookieJar {
  appendHeader(name: string, value: string): unknown;
}

/** The value of one cookie in a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * Sets a cookie no script and no other site's request can use: `HttpOnly`, `SameSite=Strict`, limited to `path`,
 * `Secure` on an https server; a session cookie unless `maxAgeSeconds` is given. The value must be cookie-safe
 * already (our tokens are base64url).
 */
export function setStrictCookie(
  res: CookieJar,
  cookie: { name: string; value: string; path: string; secure: boolean; maxAgeSeconds?: number },
): void {
  const secure = cookie.secure ? '; Secure' : '';
  const maxAge = cookie.maxAgeSeconds === undefined ? '' : `; Max-Age=${cookie.maxAgeSeconds}`;
  res.appendHeader(
    'Set-Cookie',
    `${cookie.name}=${cookie.value}; Path=${cookie.path}${maxAge}; HttpOnly; SameSite=Strict${secure}`,
  );
}
