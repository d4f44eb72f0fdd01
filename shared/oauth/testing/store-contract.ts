import { describe, expect, it } from 'vitest';
import type { PostgresSql } from '../../sql/postgres.ts';
import type { SqliteSql } from '../../sql/sqlite.ts';
import { type CodeRecord, OAuthStore, type TokenRecord } from '../store.ts';

/** Two handles on one storage (two BFF instances), or the same object twice where the store lives in memory. */
export type OpenOAuthPair = () => Promise<{ a: OAuthStore; b: OAuthStore; close(): Promise<void> }>;

const NOW = 1_763_800_000_000;
let n = 0;
const unique = (what: string) => `${what}-${++n}-${Math.random().toString(16).slice(2)}`;

const grant = (clientIdHash: string, grantId = unique('grant')) => ({
  clientIdHash,
  grantId,
  subject: 'merchant',
  scopes: ['rates', 'tracking'],
  resource: 'http://127.0.0.1:4000/mcp',
  expiresAt: NOW + 3_600_000,
});
const code = (clientIdHash: string): CodeRecord => ({
  ...grant(clientIdHash),
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  redirectUri: 'http://127.0.0.1:6274/callback',
});
const token = (clientIdHash: string, kind: TokenRecord['kind'], grantId?: string): TokenRecord => ({
  ...grant(clientIdHash, grantId),
  kind,
});

async function client(store: OAuthStore): Promise<string> {
  const idHash = unique('client');
  await store.putClient({
    idHash,
    metadata: { client_name: 'Agente', redirect_uris: ['http://127.0.0.1:6274/callback'] },
    createdAt: NOW,
    lastUsedAt: null,
  });
  return idHash;
}

/** The guarantees the OAuth flow relies on, for each store: single use under concurrency, revocation, expiry. */
export function describeOAuthStore(name: string, open: OpenOAuthPair): void {
  describe(`OAuthStore contract: ${name}`, () => {
    it('spends a code once when many exchanges race, from either handle, and says reused after', async () => {
      const { a, b, close } = await open();
      try {
        const idHash = await client(a);
        const hash = unique('code');
        await a.putCode(hash, code(idHash));
        const spends = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).spendCode(hash)),
        );
        expect(spends.filter((s) => s.state === 'fresh')).toHaveLength(1);
        expect(spends.filter((s) => s.state === 'reused')).toHaveLength(9);
        expect(await b.spendCode(unique('nope'))).toEqual({ state: 'unknown' });
      } finally {
        await close();
      }
    });

    it('rotates a refresh token once under a race, and never spends an access token as one', async () => {
      const { a, b, close } = await open();
      try {
        const idHash = await client(a);
        const refresh = unique('refresh');
        const access = unique('access');
        await a.putToken(refresh, token(idHash, 'refresh'));
        await a.putToken(access, token(idHash, 'access'));
        const spends = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).spendToken(refresh)),
        );
        expect(spends.filter((s) => s.state === 'fresh')).toHaveLength(1);
        expect((await b.getToken(refresh))?.used).toBe(true);
        expect(await a.spendToken(access)).toEqual({ state: 'unknown' });
        expect((await b.getToken(access))?.used).toBe(false);
      } finally {
        await close();
      }
    });

    it('revokes at once: deleting a client or a grant removes its codes and tokens for every handle', async () => {
      const { a, b, close } = await open();
      try {
        const idHash = await client(a);
        const kept = await client(a);
        const grantId = unique('grant');
        const [t1, t2, t3] = [unique('t'), unique('t'), unique('t')];
        await a.putToken(t1, token(idHash, 'access', grantId));
        await a.putToken(t2, token(idHash, 'refresh'));
        await a.putToken(t3, token(kept, 'access'));
        await b.deleteGrant(grantId);
        expect(await a.getToken(t1)).toBeUndefined();
        expect(await a.getToken(t2)).toBeDefined();
        expect(await b.deleteClient(idHash)).toBe(true);
        expect(await a.getToken(t2)).toBeUndefined();
        expect(await a.getClient(idHash)).toBeUndefined();
        expect(await a.getToken(t3)).toBeDefined();
        expect(await b.deleteClient(idHash)).toBe(false);
      } finally {
        await close();
      }
    });

    it('uses a session once: of concurrent deletes one wins; another kind or an expired one is not found', async () => {
      const { a, b, close } = await open();
      try {
        const hash = unique('session');
        await a.putSession(hash, 'consent', '{"step":1}', NOW + 600_000);
        expect(await b.getSession(hash, 'consent', NOW)).toBe('{"step":1}');
        expect(await b.getSession(hash, 'admin', NOW)).toBeUndefined();
        expect(await b.getSession(hash, 'consent', NOW + 600_000)).toBeUndefined();
        const deletes = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).deleteSession(hash)),
        );
        expect(deletes.filter(Boolean)).toHaveLength(1);
        expect(await a.getSession(hash, 'consent', NOW)).toBeUndefined();
      } finally {
        await close();
      }
    });

    it('keeps one row per document client: concurrent consents insert once, a later one replaces only the metadata', async () => {
      const { a, b, close } = await open();
      try {
        const idHash = unique('document-client');
        const documentUrl = `https://app.example/${idHash}.json`;
        const put = (store: OAuthStore, name: string) =>
          store.putDocumentClient({
            idHash,
            documentUrl,
            metadata: { client_name: name, redirect_uris: ['http://127.0.0.1:6274/callback'] },
            createdAt: NOW,
            lastUsedAt: null,
          });
        await Promise.all(Array.from({ length: 6 }, (_, i) => put(i % 2 ? a : b, 'Agente')));
        expect((await a.listClients()).filter((c) => c.idHash === idHash)).toHaveLength(1);
        await a.markConsented(idHash, NOW + 1);
        await a.setPolicy(idHash, '{"maxLabelsPerDay":2}');
        await a.touchClient(idHash, NOW + 2);
        await put(b, 'Agente renomeado');
        expect(await a.getClient(idHash)).toMatchObject({
          documentUrl,
          metadata: { client_name: 'Agente renomeado' },
          consentedAt: NOW + 1,
          policy: '{"maxLabelsPerDay":2}',
          lastUsedAt: NOW + 2,
        });
        expect((await a.getClient(await client(a)))?.documentUrl).toBeNull();
      } finally {
        await close();
      }
    });

    it('bounds clients without consent per address and in all, oldest first, never a consented one, with registrations racing on two handles', async () => {
      const { a, b, close } = await open();
      try {
        await a.clear();
        const bounds = { maxAgeMs: 86_400_000, maxInAll: 10, maxPerAddress: 3 };
        const register = (store: OAuthStore, from: string, at: number) => {
          const idHash = unique('client');
          return store
            .registerClient(
              {
                idHash,
                metadata: { redirect_uris: ['http://127.0.0.1:9/cb'] },
                createdAt: at,
                lastUsedAt: null,
                registeredFrom: from,
              },
              bounds,
            )
            .then(() => idHash);
        };
        const consented = await register(a, 'x', NOW);
        await a.markConsented(consented, NOW);
        // 5 from one address, one after the other in the same millisecond: its 3 newest stay.
        const one: string[] = [];
        for (let i = 0; i < 5; i++) one.push(await register(i % 2 ? a : b, 'one', NOW + 1));
        const kept = async (ids: string[]) =>
          Promise.all(ids.map(async (id) => (await a.getClient(id)) !== undefined));
        expect(await kept(one)).toEqual([false, false, true, true, true]);
        // 40 more from 20 addresses, racing on both handles: 10 without consent in all, and the consented one.
        await Promise.all(
          Array.from({ length: 40 }, (_, i) => register(i % 2 ? a : b, `addr-${i % 20}`, NOW + 2 + i)),
        );
        const all = await b.listClients();
        expect(all.filter((c) => c.consentedAt == null)).toHaveLength(10);
        expect(all.find((c) => c.idHash === consented)?.consentedAt).toBe(NOW);
        // A day later the next registration purges every one left without consent.
        await register(a, 'late', NOW + 86_400_000 + 100);
        expect((await b.listClients()).map((c) => c.idHash).sort()).toHaveLength(2);
      } finally {
        await close();
      }
    });

    it('lists a page of consented clients, the newest consent first, with their live scopes in one query', async () => {
      const { a, b, close } = await open();
      try {
        await a.clear();
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const idHash = await client(a);
          await a.markConsented(idHash, NOW + i);
          ids.push(idHash);
        }
        await client(a);
        await b.putToken(unique('token'), { ...token(ids[4] as string, 'access'), scopes: ['rates'] });
        expect(await b.countConsentedClients()).toBe(5);
        const page = await b.consentedClients({ limit: 2, offset: 1 });
        expect(page.map((c) => c.idHash)).toEqual([ids[3], ids[2]]);
        const scopes = await a.activeScopesOf([ids[4] as string, ids[3] as string], NOW);
        expect(Object.fromEntries(scopes)).toEqual({ [ids[4] as string]: ['rates'], [ids[3] as string]: [] });
      } finally {
        await close();
      }
    });

    it('purges what expired, lists live scopes, and records the last use', async () => {
      const { a, b, close } = await open();
      try {
        const idHash = await client(a);
        const live = unique('t');
        const old = unique('t');
        await a.putToken(live, { ...token(idHash, 'access'), scopes: ['labels'] });
        await a.putToken(old, { ...token(idHash, 'access'), scopes: ['rates'], expiresAt: NOW - 1 });
        expect((await b.activeScopesOf([idHash], NOW)).get(idHash)).toEqual(['labels']);
        await b.purgeExpired(NOW);
        expect(await a.getToken(old)).toBeUndefined();
        expect(await a.getToken(live)).toBeDefined();
        await b.touchClient(idHash, NOW + 5);
        expect((await a.getClient(idHash))?.lastUsedAt).toBe(NOW + 5);
        expect((await a.listClients()).some((c) => c.idHash === idHash)).toBe(true);
      } finally {
        await close();
      }
    });
  });
}

/** Two stores, each on its own connection (two processes, or two BFF instances), closed together. */
export function pair(open: () => SqliteSql | PostgresSql) {
  const sqls = [open(), open()] as const;
  return {
    a: new OAuthStore(sqls[0]),
    b: new OAuthStore(sqls[1]),
    close: async () => void (await Promise.all(sqls.map((sql) => sql.close()))),
  };
}
