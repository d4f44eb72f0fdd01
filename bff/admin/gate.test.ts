import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, SERVER_ERROR_STATUS } from '../../shared/errors.ts';
import { OAuthStore } from '../../shared/oauth/store.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { errorHandler } from '../http/errors.ts';
import { createLogger } from '../logger.ts';
import { adminSessionOf, requireAdminSession } from './gate.ts';
import { AdminSessions, REFUSED } from './session.ts';

/**
 * The one `/admin` gate (bff/admin/gate.ts) in process over real admin sessions (node:sqlite): what a caller without
 * a session, from another site, without the token or with a forged cookie gets, through the BFF's one error path.
 */
const SESSION = 'the-merchants-session-cookie-0123456789abcdef';
const CSRF = 'the-sessions-csrf-token-0123456789abcdefghijk';
const EXPIRED = 'an-expired-session-cookie-0123456789abcdefgh';
let sql: SqliteSql;
let http: Server;
let url: string;

beforeAll(async () => {
  sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  const store = new OAuthStore(sql);
  await store.putSession(sha256Hex(SESSION), 'admin', JSON.stringify({ csrf: CSRF }), Date.now() + 3_600_000);
  await store.putSession(sha256Hex(EXPIRED), 'admin', JSON.stringify({ csrf: CSRF }), Date.now() - 1);
  http = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => http.once('listening', done));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const sessions = new AdminSessions({ store, publicUrl: url });
  const app = express();
  const echo = (_req: express.Request, res: express.Response) => {
    res.json({ csrf: adminSessionOf(res).csrf });
  };
  app.use('/admin/api', requireAdminSession(sessions));
  app.all('/admin/api/thing', echo);
  // A second gate on a route already behind the first (the notifications' routes behind the desk's) admits it too.
  app.post('/admin/api/twice', requireAdminSession(sessions), echo);
  app.post(
    '/admin/form',
    express.urlencoded({ extended: false }),
    requireAdminSession(sessions, 'form'),
    echo,
  );
  app.use(errorHandler(createLogger({ level: 'silent' })));
  http.on('request', app);
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((done) => http.close(done));
  await sql.close();
});

const signedIn = { cookie: `admin_session=${SESSION}` };
const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method, headers });
const errorOf = async (res: Response) => ((await res.json()) as { error: unknown }).error;

describe('requireAdminSession: the JSON API', () => {
  it('answers 401 invalid_api_key without a session, with a forged cookie or an expired one, never cached', async () => {
    const cookies = [
      'admin_session=forged',
      `admin_session=${CSRF}`,
      `admin_session=${EXPIRED}`,
      `x=${SESSION}`,
    ];
    for (const headers of [{}, ...cookies.map((cookie) => ({ cookie }))]) {
      for (const method of ['GET', 'POST']) {
        const res = await call(method, '/admin/api/thing', { ...headers, 'x-csrf-token': CSRF });
        expect(res.status, method).toBe(401);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await errorOf(res)).toEqual({
          code: 'invalid_api_key',
          message: 'Log in at /admin/login first.',
        });
      }
    }
  });

  it('lets a GET through with the session alone, and tells the route the session', async () => {
    const res = await call('GET', '/admin/api/thing', signedIn);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ csrf: CSRF });
    expect(
      (await call('GET', '/admin/api/thing', { ...signedIn, origin: 'https://evil.example' })).status,
    ).toBe(200);
  });

  it('refuses a state-changing call without the token or with a wrong one: 403 invalid_csrf_token', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const token of [undefined, '', 'wrong', `${CSRF}x`, CSRF.slice(0, -1)]) {
        const headers = token === undefined ? signedIn : { ...signedIn, 'x-csrf-token': token };
        const res = await call(method, '/admin/api/thing', headers);
        expect(res.status, `${method} ${token}`).toBe(403);
        expect(await errorOf(res)).toEqual({
          code: 'invalid_csrf_token',
          message: 'Send the session’s CSRF token (GET /admin/api/session) in X-CSRF-Token.',
        });
      }
    }
  });

  it('refuses a call from another site even with the token: 403 forbidden_origin', async () => {
    const foreign = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: url.replace('127.0.0.1', 'localhost.evil.example') },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const res = await call('POST', '/admin/api/thing', { ...signedIn, 'x-csrf-token': CSRF, ...headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await errorOf(res)).toEqual({
        code: 'forbidden_origin',
        message: 'This request did not come from this desk.',
      });
    }
  });

  it('admits a state-changing call of its own page with the token, once or behind two gates', async () => {
    for (const headers of [{}, { origin: url }, { 'sec-fetch-site': 'same-origin' }]) {
      const res = await call('POST', '/admin/api/thing', { ...signedIn, 'x-csrf-token': CSRF, ...headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
    expect((await call('POST', '/admin/api/twice', { ...signedIn, 'x-csrf-token': CSRF })).status).toBe(200);
    expect((await call('POST', '/admin/api/twice', signedIn)).status).toBe(403);
  });

  it('refuses with codes of the one error table, in their default words', () => {
    expect(SERVER_ERROR_STATUS.forbidden_origin).toBe(403);
    expect(SERVER_ERROR_STATUS.invalid_csrf_token).toBe(403);
    expect(ERROR_MESSAGES.forbidden_origin).toBe('This request did not come from this desk.');
  });
});

describe("requireAdminSession: the admin pages' forms", () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = signedIn) =>
    fetch(`${url}/admin/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    });

  it('takes the token from the form, and answers a refusal as the page of an invalid session', async () => {
    expect(await (await form({ csrf: CSRF })).json()).toEqual({ csrf: CSRF });
    for (const [res, why] of [
      [await form({ csrf: 'wrong' }), 'A sessão expirou.'],
      [await form({}, { ...signedIn, 'x-csrf-token': CSRF }), 'A sessão expirou.'],
      [await form({ csrf: CSRF }, { ...signedIn, origin: 'https://evil.example' }), REFUSED.foreign_origin],
      [await form({ csrf: CSRF }, { cookie: 'admin_session=forged' }), 'A sessão expirou.'],
      [await form({ csrf: CSRF }, {}), 'A sessão expirou.'],
    ] as const) {
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await res.text();
      expect(page).toContain('<h1>Sessão inválida</h1>');
      expect(page).toContain(why);
    }
  });
});
