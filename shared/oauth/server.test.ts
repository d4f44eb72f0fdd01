import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe } from 'vitest';
import { SqliteSql } from '../sql/sqlite.ts';
import { AuthorizationServer } from './server.ts';
import { OAuthStore } from './store.ts';
import { type OAuthServerUnderTest, oauthServerSuite } from './testing/suite.ts';

/**
 * The authorization server of both servers on its own, in process: one merchant's password, the store on node:sqlite
 * in memory (a fresh one per test), and a `/mcp` that answers 200 to a valid token and the challenge otherwise. The
 * same suite runs against the sandbox (sandbox/oauth/oauth.test.ts) and the BFF (bff/oauth/oauth.test.ts); this one
 * starts in milliseconds, so the mutation run judges the provider and the store by it.
 */
const PASSWORD = 'senha-do-lojista-oauth';
let url = '';
let offset = 0;
let http: Server;
let sql: SqliteSql;

beforeEach(async () => {
  offset = 0;
  // listening first: the issuer is the address it listens on
  http = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => http.once('listening', done));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  const oauth = new AuthorizationServer({
    store: new OAuthStore(sql),
    issuer: url,
    scopes: ['rates', 'labels'],
    resourceName: 'MCP under test',
    rateLimits: false,
    logins: { deviceSecret: 'a-device-secret' },
    pages: {
      login: 'password',
      accountOf: () => 'merchant',
      verifyLogin: (_email, password) => (password === PASSWORD ? 'merchant' : undefined),
      storeName: () => 'Loja Demo',
      scopeLabels: { rates: 'Cotar fretes (rates)', labels: 'Emitir etiquetas (labels)' },
      pickScopes: true,
      serverName: 'frete-kit (teste)',
    },
    now: () => Date.now() + offset,
  });
  const app = express();
  app.use(oauth.routes());
  app.post('/mcp', async (req, res) => {
    const check = await oauth.provider.checkBearer(req.headers.authorization);
    if (check.kind === 'valid') return void res.json({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    res.setHeader('WWW-Authenticate', oauth.challenge(req.headers.authorization));
    res.status(401).json({ error: 'invalid_token' });
  });
  http.on('request', app);
});
afterEach(async () => {
  http.closeAllConnections();
  await new Promise((done) => http.close(done));
  await sql.close();
});

const server: OAuthServerUnderTest = {
  origin: () => url,
  credentials: { password: PASSWORD },
  wrongCredentials: { password: `${PASSWORD}!` },
  consentScopes: ['rates', 'labels'],
  scopesSupported: ['rates', 'labels'],
  advance: (ms) => {
    offset += ms;
  },
};

describe('the authorization server in process (the suite both servers pass)', () => {
  oauthServerSuite(server);
});
