import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_SECRET } from './testing/harness.ts';
import { DeliveryError, signWebhook, WebhookSender, type WebhookSenderOptions } from './webhook.ts';

describe('signWebhook', () => {
  it('signs as the Standard Webhooks reference library does, byte for byte', () => {
    const body = '{"type":"shipment.delivered","data":{"trackingCode":"QB123456785BR"}}';
    const at = new Date('2026-11-24T12:00:00Z');
    const ours = signWebhook(WEBHOOK_SECRET, 'msg_1', Math.floor(at.getTime() / 1000), body);
    expect(ours).toBe(new Webhook(WEBHOOK_SECRET).sign('msg_1', at, body));
  });

  it('makes a signature the reference library refuses once the body, the id or the secret changes', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"a":1}';
    const headers = (signature: string, id = 'msg_1') => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    });
    const verifier = new Webhook(WEBHOOK_SECRET);
    const signature = signWebhook(WEBHOOK_SECRET, 'msg_1', timestamp, body);
    expect(verifier.verify(body, headers(signature))).toEqual({ a: 1 });
    expect(() => verifier.verify('{"a":2}', headers(signature))).toThrow();
    expect(() => verifier.verify(body, headers(signature, 'msg_2'))).toThrow();
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => verifier.verify(body, headers(signWebhook(other, 'msg_1', timestamp, body)))).toThrow();
  });
});

describe('WebhookSender', () => {
  let server: Server;
  let base: string;
  const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body });
        if (req.url === '/moved') res.writeHead(302, { location: '/ok' }).end();
        else if (req.url === '/gone') res.writeHead(410).end('{"error":"no such hook"}');
        else if (req.url === '/created') res.writeHead(201).end();
        else if (req.url === '/empty') res.writeHead(204).end();
        else if (req.url === '/choices') res.writeHead(300).end();
        else res.writeHead(200).end('thanks');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((done) => server.close(done)));
  beforeEach(() => {
    received.length = 0;
  });

  const AT = Date.parse('2026-11-24T12:00:00.999Z');
  const sender = (path: string, more: Partial<WebhookSenderOptions> = {}) =>
    new WebhookSender({ url: `${base}${path}`, secret: WEBHOOK_SECRET, clock: () => AT, ...more });

  it('posts the body signed so the reference library verifies it, with the event id and the time of the try', async () => {
    const body = '{"type":"shipment.delivered"}';
    await sender('/hook').send('evt_1', body);
    const [hit] = received;
    expect(hit?.body).toBe(body);
    expect(hit?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'frete-kit-webhooks',
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(AT / 1000)),
    });
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(hit?.headers['webhook-timestamp']),
      'webhook-signature': String(hit?.headers['webhook-signature']),
    };
    // the reference library checks the timestamp against its own clock: verify at the time of the try
    vi.useFakeTimers({ now: AT, toFake: ['Date'] });
    try {
      expect(new Webhook(WEBHOOK_SECRET).verify(body, headers)).toEqual({ type: 'shipment.delivered' });
    } finally {
      vi.useRealTimers();
    }
    expect(sender('/hook').url).toBe(`${base}/hook`);
  });

  it('counts any 2xx as delivered, with a body or none; a 300, a redirect (never followed) or a 410 is a failed try', async () => {
    await expect(sender('/created').send('evt_1', '{}')).resolves.toBeUndefined();
    await expect(sender('/empty').send('evt_1', '{}')).resolves.toBeUndefined();
    await expect(sender('/moved').send('evt_1', '{}')).rejects.toThrow(
      new DeliveryError('the endpoint answered HTTP 302'),
    );
    expect(received.map((r) => r.url)).toEqual(['/created', '/empty', '/moved']);
    await expect(sender('/choices').send('evt_1', '{}')).rejects.toThrow('the endpoint answered HTTP 300');
    const gone = await sender('/gone')
      .send('evt_1', '{}')
      .catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(DeliveryError);
    expect(gone).toMatchObject({
      name: 'DeliveryError',
      message: 'the endpoint answered HTTP 410',
      permanent: false,
    });
  });

  it('says the endpoint could not be reached, never why in its own words', async () => {
    const refused = sender('/hook', {
      fetch: () => Promise.reject(new TypeError('fetch failed: connect ECONNREFUSED 127.0.0.1:1')),
    });
    await expect(refused.send('evt_1', '{}')).rejects.toThrow(
      new DeliveryError('the endpoint could not be reached'),
    );
  });

  it('gives up on a try after timeoutMs and says so', async () => {
    let signal: AbortSignal | undefined;
    const silent = sender('/hook', {
      timeoutMs: 5,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          signal = init?.signal ?? undefined;
          signal?.addEventListener('abort', () => reject(signal?.reason));
        }),
    });
    await expect(silent.send('evt_1', '{}')).rejects.toThrow(new DeliveryError('no answer within 5 ms'));
    expect(signal?.aborted).toBe(true);
  });

  it('is a permanent failure only when its maker says so', () => {
    expect(new DeliveryError('x').permanent).toBe(false);
    expect(new DeliveryError('x', true).permanent).toBe(true);
  });
});
