import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET } from './testing/harness.ts';
import { signWebhook } from './webhook.ts';

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
