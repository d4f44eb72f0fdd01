/**
 * A merchant's desk session as a script gets one (docs/desk.md, "The JSON API, for the pages and for your scripts"): the login form's
 * CSRF cookie and field, the password posted, then `GET /admin/api/session` for the token every POST sends as
 * `X-CSRF-Token`. For tests of the desk's API and pages.
 */
export async function deskSession(
  bffUrl: string,
  password: string,
): Promise<{ cookie: string; csrf: string }> {
  const page = await fetch(`${bffUrl}/admin/agents`);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const response = await fetch(`${bffUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrf, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((set) => set.split(';')[0] ?? '')
    .join('; ');
  const session = (await (await fetch(`${bffUrl}/admin/api/session`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  return { cookie, csrf: session.csrfToken };
}
