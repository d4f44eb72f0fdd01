import { describe, expect, it } from 'vitest';
import type { ShipmentEvent } from '../../shared/shipment-events.ts';
import { renderEmail } from './email.ts';

const event = (
  over: Partial<ShipmentEvent['data']> = {},
  type: ShipmentEvent['type'] = 'shipment.delivered',
) => ({
  type,
  timestamp: '2026-11-24T12:00:00.000Z',
  data: {
    orderId: 'PED-1',
    volume: 1,
    trackingCode: 'QB123456785BR',
    prepostagemId: 'PP1',
    status: 'delivered' as const,
    lastEvent: { code: 'BDE', type: '01', description: 'Objeto entregue ao destinatário' },
    trackingUrl: 'https://frete.loja.example/track/s/abc.def',
    ...over,
  },
});
const store = { name: 'Loja <b>Demo</b>', url: 'https://loja.example', logoUrl: undefined };

describe('renderEmail', () => {
  it('writes the status, the code, the last event and the link, in text and in HTML', () => {
    const mail = renderEmail({ event: event(), locale: 'pt-BR', name: 'Maria Souza', store });
    expect(mail.subject).toBe('Loja <b>Demo</b>: Seu pedido PED-1 foi entregue');
    expect(mail.text).toContain('Olá, Maria,');
    expect(mail.text).toContain('Código de rastreamento: QB123456785BR');
    expect(mail.text).toContain('Acompanhar o pedido: https://frete.loja.example/track/s/abc.def');
    expect(mail.html).toContain('href="https://frete.loja.example/track/s/abc.def"');
  });

  it('escapes every value in the HTML: a hostile name or store name is text', () => {
    const mail = renderEmail({
      event: event(),
      locale: 'pt-BR',
      name: '<img src=x onerror=alert(1)>',
      store,
    });
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('<b>Demo</b>');
    expect(mail.html).toContain('&#60;b&#62;Demo&#60;/b&#62;');
  });

  it('speaks English and Spanish, says stalled in its own words, and names no store when none is set', () => {
    const none = { name: undefined, url: undefined, logoUrl: undefined };
    expect(renderEmail({ event: event(), locale: 'en', store: none }).subject).toBe(
      'Your order PED-1 has been delivered',
    );
    expect(renderEmail({ event: event(), locale: 'es', store: none }).text).toContain('Hola:');
    const stalled = renderEmail({
      event: event({ status: 'in-transit' }, 'shipment.stalled'),
      locale: 'pt-BR',
      store: none,
    });
    expect(stalled.subject).toBe('Seu pedido PED-1 está sem novidades há alguns dias');
    expect(stalled.text).toContain('Você recebe este e-mail porque comprou em nossa loja.');
    const noOrder = renderEmail({ event: event({ orderId: undefined }), locale: 'en', store: none });
    expect(noOrder.subject).toBe('Your order has been delivered');
  });
});
