import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../security/hash.ts';
import {
  closeProviders,
  FLOW_START,
  flowClock,
  flowProvider,
  LOOPBACK_CALLBACK,
  MCP_RESOURCE,
  oauthFailure,
  pendingFor,
  registeredClient,
  S256_CHALLENGE,
  tokensFor,
} from './testing/providers.ts';

afterEach(closeProviders);

describe('scopes and the resource', () => {
  it('takes only scopes it offers, and tokens only for its own /mcp', () => {
    const oauth = flowProvider();
    expect(() => oauth.checkScopes(['rates', 'labels'])).not.toThrow();
    expect(() => oauth.checkScopes(['rates', 'admin', 'root'])).toThrow('unknown scope: admin root');
    expect(() => oauth.checkResource(undefined)).not.toThrow();
    expect(() => oauth.checkResource(`${MCP_RESOURCE}/`)).not.toThrow();
    expect(() => oauth.checkResource(new URL(MCP_RESOURCE))).not.toThrow();
    expect(() => oauth.checkResource('http://127.0.0.1:4001/mcp')).toThrow(
      `tokens are issued only for ${MCP_RESOURCE}`,
    );
  });

  it('re-validates a pending authorization posted back by a form', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    expect(await oauth.pendingClient(pendingFor(client))).toEqual(client);
    expect(await oauth.pendingClient(pendingFor(client, { clientId: 'unknown' }))).toBeUndefined();
    expect(
      await oauth.pendingClient(pendingFor(client, { redirectUri: 'http://127.0.0.1:1/other' })),
    ).toBeUndefined();
    expect(
      await oauth.pendingClient(pendingFor(client, { codeChallenge: `${S256_CHALLENGE}x` })),
    ).toBeUndefined();
    expect(await oauth.pendingClient(pendingFor(client, { scopes: ['rates', 'admin'] }))).toBeUndefined();
  });
});

describe('codes', () => {
  it('issues a single-use code for the consented scopes, and keeps the client from then on', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const code = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    expect(await oauth.challengeForAuthorizationCode(client, code)).toBe(S256_CHALLENGE);
    expect((await oauth.store.getClient(sha256Hex(client.client_id)))?.consentedAt).toBe(FLOW_START);
    const tokens = await oauth.exchangeAuthorizationCode(client, code, undefined, LOOPBACK_CALLBACK);
    expect(tokens).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3_600,
      refresh_token: expect.any(String),
      scope: 'rates',
    });
    expect(await oauth.checkBearer(`Bearer ${tokens.access_token}`)).toMatchObject({
      kind: 'valid',
      subject: 'merchant',
      scopes: ['rates'],
      clientIdHash: sha256Hex(client.client_id),
    });
    expect(await oauthFailure(oauth.issueCode(pendingFor(client), 'merchant', ['admin']))).toBe(
      'InvalidScopeError: unknown scope: admin',
    );
  });

  it("refuses another client's code, an unknown one, and a second exchange, which ends the first one's tokens", async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const other = await registeredClient(oauth);
    const code = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    expect(await oauthFailure(oauth.challengeForAuthorizationCode(other, code))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    expect(await oauthFailure(oauth.challengeForAuthorizationCode(client, 'nope'))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    expect(await oauthFailure(oauth.exchangeAuthorizationCode(client, 'nope'))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    const stolen = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    expect(await oauthFailure(oauth.exchangeAuthorizationCode(other, stolen))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    const tokens = await oauth.exchangeAuthorizationCode(client, code);
    expect(await oauthFailure(oauth.exchangeAuthorizationCode(client, code))).toBe(
      'InvalidGrantError: the authorization code was already used',
    );
    expect(await oauth.checkBearer(`Bearer ${tokens.access_token}`)).toEqual({ kind: 'invalid' });
  });

  it('takes a code for 60 seconds, to the millisecond, with its redirect URI and resource only', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const onTime = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    const late = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    const moved = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    const elsewhere = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    flowClock.now += 60_000;
    expect(
      await oauthFailure(oauth.exchangeAuthorizationCode(client, onTime, undefined, LOOPBACK_CALLBACK)),
    ).toBeUndefined();
    expect(
      await oauthFailure(oauth.exchangeAuthorizationCode(client, moved, undefined, 'http://127.0.0.1:1/x')),
    ).toBe('InvalidGrantError: redirect_uri does not match the authorization request');
    expect(
      await oauthFailure(
        oauth.exchangeAuthorizationCode(
          client,
          elsewhere,
          undefined,
          undefined,
          new URL('http://x.example/mcp'),
        ),
      ),
    ).toBe(`InvalidTargetError: tokens are issued only for ${MCP_RESOURCE}`);
    flowClock.now += 1;
    expect(await oauthFailure(oauth.exchangeAuthorizationCode(client, late))).toBe(
      'InvalidGrantError: the authorization code has expired',
    );
  });
});

describe('tokens', () => {
  it('rotates a refresh token; a rotated one used again ends the whole grant', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const first = await tokensFor(oauth, client);
    const second = await oauth.exchangeRefreshToken(client, first.refresh_token ?? '');
    expect(second.scope).toBe('rates labels');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await oauthFailure(oauth.exchangeRefreshToken(client, first.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token was already used',
    );
    expect(await oauth.checkBearer(`Bearer ${second.access_token}`)).toEqual({ kind: 'invalid' });
    expect(await oauthFailure(oauth.exchangeRefreshToken(client, second.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token is not valid',
    );
  });

  it('gives one of two refreshes at once new tokens, and ends the grant for the other', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const first = await tokensFor(oauth, client);
    const results = await Promise.allSettled([
      oauth.exchangeRefreshToken(client, first.refresh_token ?? ''),
      oauth.exchangeRefreshToken(client, first.refresh_token ?? ''),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const won = results.find((r) => r.status === 'fulfilled');
    if (won?.status !== 'fulfilled') throw new Error('none won');
    expect(await oauth.checkBearer(`Bearer ${won.value.access_token}`)).toEqual({ kind: 'invalid' });
  });

  it("refuses another client's refresh token, an access token as one, and one past its 30 days", async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const other = await registeredClient(oauth);
    const tokens = await tokensFor(oauth, client);
    expect(await oauthFailure(oauth.exchangeRefreshToken(other, tokens.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token is not valid',
    );
    expect(await oauthFailure(oauth.exchangeRefreshToken(client, tokens.access_token))).toBe(
      'InvalidGrantError: the refresh token is not valid',
    );
    flowClock.now += 30 * 24 * 3_600_000;
    const lastDay = await oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '');
    const later = await tokensFor(oauth, client);
    flowClock.now += 30 * 24 * 3_600_000 + 1;
    expect(await oauthFailure(oauth.exchangeRefreshToken(client, later.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token has expired',
    );
    expect(lastDay.refresh_token).toBeDefined();
  });

  it('narrows the scopes on a refresh, never widens them, and a refused refresh spends nothing', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const tokens = await tokensFor(oauth, client, ['rates']);
    expect(
      await oauthFailure(oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '', ['rates', 'labels'])),
    ).toBe('InvalidScopeError: a refresh cannot widen the granted scopes');
    expect(
      await oauthFailure(
        oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '', [], new URL('http://x.example/')),
      ),
    ).toBe(`InvalidTargetError: tokens are issued only for ${MCP_RESOURCE}`);
    const narrowed = await oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '', ['rates', '']);
    expect(narrowed.scope).toBe('rates');
    const wide = await tokensFor(oauth, client);
    expect((await oauth.exchangeRefreshToken(client, wide.refresh_token ?? '', ['labels'])).scope).toBe(
      'labels',
    );
  });

  it('takes an access token for one hour, to the millisecond, and says what it allows', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const tokens = await tokensFor(oauth, client, ['rates']);
    expect(await oauth.verifyAccessToken(tokens.access_token)).toEqual({
      token: tokens.access_token,
      clientId: sha256Hex(client.client_id),
      scopes: ['rates'],
      expiresAt: Math.floor((FLOW_START + 3_600_000) / 1000),
      resource: new URL(MCP_RESOURCE),
      extra: { subject: 'merchant' },
    });
    expect(await oauthFailure(oauth.verifyAccessToken(tokens.refresh_token ?? ''))).toBe(
      'InvalidTokenError: the access token is not valid',
    );
    flowClock.now += 3_600_000 - 1;
    expect(await oauthFailure(oauth.verifyAccessToken(tokens.access_token))).toBeUndefined();
    flowClock.now += 1;
    expect(await oauthFailure(oauth.verifyAccessToken(tokens.access_token))).toBe(
      'InvalidTokenError: the access token has expired',
    );
  });

  it("records a client's last use at most once a minute", async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const tokens = await tokensFor(oauth, client);
    const lastUse = async () => (await oauth.store.getClient(sha256Hex(client.client_id)))?.lastUsedAt;
    await oauth.verifyAccessToken(tokens.access_token);
    expect(await lastUse()).toBe(FLOW_START);
    flowClock.now += 59_999;
    await oauth.verifyAccessToken(tokens.access_token);
    expect(await lastUse()).toBe(FLOW_START);
    flowClock.now += 1;
    await oauth.verifyAccessToken(tokens.access_token);
    expect(await lastUse()).toBe(FLOW_START + 60_000);
  });

  it("revokes a grant by either of its tokens, and ignores another client's or an unknown one", async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
    const other = await registeredClient(oauth);
    const kept = await tokensFor(oauth, client);
    await oauth.revokeToken(other, { token: kept.access_token });
    await oauth.revokeToken(client, { token: 'unknown' });
    expect((await oauth.checkBearer(`Bearer ${kept.access_token}`)).kind).toBe('valid');
    await oauth.revokeToken(client, { token: kept.refresh_token ?? '' });
    expect((await oauth.checkBearer(`Bearer ${kept.access_token}`)).kind).toBe('invalid');
  });
});
