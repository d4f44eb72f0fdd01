import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANG_COOKIE, pickLanguage } from './language.ts';

/** The desk's language (bff/desk/language.ts) in process: the project's one rule for tags, `shared/locale.ts`. */
let http: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.get('/admin/x', (req, res) => {
    res.json({ lang: pickLanguage(req, res, false) });
  });
  http = createServer(app).listen(0, '127.0.0.1');
  await new Promise((done) => http.once('listening', done));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((done) => http.close(done));
});

const ask = async (query: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}/admin/x${query}`, { headers });
  return { lang: ((await res.json()) as { lang: string }).lang, cookie: res.headers.get('set-cookie') };
};

describe('pickLanguage', () => {
  it('takes the language the merchant picked, as the widgets read a tag (pt_BR too), and keeps it in a cookie', async () => {
    // Each tag is read by shared/locale.ts (its table: locale.test.ts); here, that the desk asks it.
    for (const [tag, lang] of [
      ['pt_BR', 'pt-BR'],
      ['en_US', 'en'],
      ['es-419', 'es'],
    ]) {
      const picked = await ask(`?lang=${tag}`, { cookie: `${LANG_COOKIE}=es`, 'accept-language': 'es' });
      expect(picked.lang, tag).toBe(lang);
      expect(picked.cookie, tag).toMatch(
        new RegExp(`^${LANG_COOKIE}=${lang}; Max-Age=31536000; Path=/admin;`),
      );
      expect(picked.cookie).toMatch(/HttpOnly; SameSite=Lax$/);
    }
  });

  it('ignores a language it does not speak, then reads the cookie, then Accept-Language by its q-values', async () => {
    expect(await ask('?lang=fr', { cookie: `${LANG_COOKIE}=en` })).toEqual({ lang: 'en', cookie: null });
    expect((await ask('', { cookie: `${LANG_COOKIE}=es`, 'accept-language': 'en' })).lang).toBe('es');
    expect((await ask('', { cookie: `${LANG_COOKIE}=de`, 'accept-language': 'en' })).lang).toBe('en');
    expect((await ask('', { 'accept-language': 'fr-CA, es;q=0.8, en;q=0.9' })).lang).toBe('en');
    expect((await ask('', { 'accept-language': 'pt_BR' })).lang).toBe('pt-BR');
    expect((await ask('', { 'accept-language': 'en;q=0, es;q=0.1' })).lang).toBe('es');
  });

  it('falls back to pt-BR', async () => {
    for (const headers of [
      {},
      { 'accept-language': 'fr, de' },
      { 'accept-language': 'en;q=0' },
      { 'accept-language': '*' },
    ])
      expect((await ask('?lang=xx', headers)).lang).toBe('pt-BR');
  });
});
