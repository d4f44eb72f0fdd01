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
    expect(stalled.text.split('\n')[3]).toBe('A loja já foi avisada e está acompanhando com os Correios.');
    const noOrder = renderEmail({ event: event({ orderId: undefined }), locale: 'en', store: none });
    expect(noOrder.subject).toBe('Your order has been delivered');
  });
});

/** The words an HTML e-mail shows: its tags dropped, its spaces collapsed. */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('renderEmail, what each event says', () => {
  const none = { name: undefined, url: undefined, logoUrl: undefined };
  const promise = { from: '2026-12-03', to: '2026-12-05', basis: 'history' as const, parcels: 40 };
  const moving = {
    code: 'RO',
    type: '01',
    description: 'Objeto em trânsito',
    origin: 'CTE Cajamar/SP',
    destination: 'CDD Centro/RJ',
  };

  it('writes the text e-mail line by line: greeting, status, next step, promise, last event, code, link, store', () => {
    const mail = renderEmail({
      event: event({ status: 'in-transit', lastEvent: moving, promise }, 'shipment.status_changed'),
      locale: 'pt-BR',
      name: '  Maria\tda Silva ',
      store: { name: 'Loja Demo', url: 'https://loja.example', logoUrl: undefined },
    });
    expect(mail.text.split('\n')).toEqual([
      'Olá, Maria,',
      '',
      'Seu pedido PED-1 está a caminho.',
      'Nada a fazer agora: o objeto está a caminho.',
      'Previsão de entrega: entre 3 e 5/12',
      '',
      'Última informação dos Correios: Objeto em trânsito — CTE Cajamar/SP → CDD Centro/RJ',
      'Código de rastreamento: QB123456785BR',
      '',
      'Acompanhar o pedido: https://frete.loja.example/track/s/abc.def',
      '',
      '—',
      'Você recebe este e-mail porque comprou em Loja Demo.',
      'https://loja.example',
    ]);
    expect(mail.html).toContain('<strong>Previsão de entrega: entre 3 e 5/12</strong>');
    expect(mail.html).toContain('Objeto em trânsito — CTE Cajamar/SP → CDD Centro/RJ');
  });

  it('leaves out what it does not know: no promise, no last event, no store address, no place of the event', () => {
    const mail = renderEmail({
      event: event({ status: 'in-transit', lastEvent: undefined }, 'shipment.status_changed'),
      locale: 'en',
      store: none,
    });
    expect(mail.text.split('\n')).toEqual([
      'Hello,',
      '',
      'Your order PED-1 is on its way.',
      'Nothing to do now: the parcel is on its way.',
      '',
      'Tracking code: QB123456785BR',
      '',
      'Track your order: https://frete.loja.example/track/s/abc.def',
      '',
      '—',
      'You get this e-mail because you bought from our store.',
    ]);
    // the HTML says the same words, and nothing else
    expect(visible(mail.html)).toBe(
      'Your order PED-1 is on its way Hello, Your order PED-1 is on its way Nothing to do now: the parcel is on its way. ' +
        'Tracking code QB123456785BR Track your order Or copy this address into your browser: ' +
        'https://frete.loja.example/track/s/abc.def You get this e-mail because you bought from our store.',
    );
    const placeless = renderEmail({
      event: event({ status: 'in-transit', lastEvent: { code: 'RO', description: 'In transit' } }),
      locale: 'en',
      store: none,
    });
    expect(placeless.text).toContain('Latest from the carrier: In transit\n');
    const onlyOrigin = renderEmail({
      event: event({
        status: 'in-transit',
        lastEvent: { code: 'RO', description: 'In transit', origin: 'CTE' },
      }),
      locale: 'en',
      store: none,
    });
    expect(onlyOrigin.text).toContain('Latest from the carrier: In transit — CTE\n');
  });

  it('says a parcel at risk may be late, repeating the promised dates once, in its own next step', () => {
    const mail = renderEmail({
      event: event({ status: 'in-transit', lastEvent: moving, promise }, 'shipment.promise_at_risk'),
      locale: 'pt-BR',
      store: none,
    });
    expect(mail.subject).toBe('Seu pedido PED-1 pode atrasar');
    const lines = mail.text.split('\n');
    expect(lines[3]).toBe(
      'A previsão era entre 3 e 5/12, e o objeto ainda está a caminho. A loja já foi avisada e está acompanhando com os Correios.',
    );
    expect(mail.text).not.toContain('Previsão de entrega');
    // without a promise to repeat, the status's own next step
    const bare = renderEmail({
      event: event({ status: 'in-transit' }, 'shipment.promise_at_risk'),
      locale: 'pt-BR',
      store: none,
    });
    expect(bare.text.split('\n')[3]).toBe('Nada a fazer agora: o objeto está a caminho.');
  });

  it('reminds of the last day to pick up, at the unit the carrier names while the parcel waits there', () => {
    const waiting = { code: 'LDI', type: '01', description: 'Aguardando retirada', origin: 'AC Centro' };
    const mail = renderEmail({
      event: event(
        { status: 'awaiting-pickup', lastEvent: waiting, pickupBy: '2026-12-04' },
        'shipment.pickup_reminder',
      ),
      locale: 'pt-BR',
      store: none,
    });
    expect(mail.subject).toBe('Retire seu pedido PED-1: faltam poucos dias');
    expect(mail.text.split('\n')[3]).toBe(
      'Retire em AC Centro até sex., 04/12, com um documento com foto; depois disso ele volta para a loja.',
    );
    const waitingNow = renderEmail({
      event: event({ status: 'awaiting-pickup', lastEvent: waiting }, 'shipment.awaiting_pickup'),
      locale: 'pt-BR',
      store: none,
    });
    expect(waitingNow.text.split('\n')[3]).toContain('Retire com um documento com foto em: AC Centro.');
    const noEvent = renderEmail({
      event: event({ status: 'awaiting-pickup', lastEvent: undefined }, 'shipment.awaiting_pickup'),
      locale: 'pt-BR',
      store: none,
    });
    expect(noEvent.text.split('\n')[3]).toContain(
      'Retire na unidade dos Correios indicada, com um documento com foto.',
    );
    // a parcel on its way names no unit, though its last event has an origin
    const onItsWay = renderEmail({
      event: event({ status: 'in-transit', lastEvent: moving, pickupBy: '2026-12-04' }),
      locale: 'pt-BR',
      store: none,
    });
    expect(onItsWay.text.split('\n')[3]).toBe(
      'Retire na unidade dos Correios indicada até sex., 04/12, com um documento com foto; depois disso ele volta para a loja.',
    );
  });

  it("shows the store's logo and link in the HTML, with the store's name as the logo's text", () => {
    const mail = renderEmail({
      event: event(),
      locale: 'pt-BR',
      store: { name: 'Loja Demo', url: 'https://loja.example', logoUrl: 'https://loja.example/logo.png' },
    });
    expect(mail.html).toContain('<img src="https://loja.example/logo.png" alt="Loja Demo" height="40"');
    expect(mail.html).toContain('<a href="https://loja.example" style="color:#1f2328;text-decoration:none">');
    expect(mail.html).toContain('comprou em Loja Demo. <a href="https://loja.example"');
    expect(mail.html).toContain('<html lang="pt-BR">');
    expect(mail.html).toContain('<title>Loja Demo: Seu pedido PED-1 foi entregue</title>');
    expect(mail.html).toContain('<strong style="font-size:18px;vertical-align:middle">Loja Demo</strong>');
    const plain = renderEmail({ event: event(), locale: 'pt-BR', store: { ...none, name: 'Loja Demo' } });
    expect(plain.html).toContain(
      '<td style="padding:20px 24px 8px"><strong style="font-size:18px;vertical-align:middle">Loja Demo</strong></td>',
    );
    const nameless = renderEmail({
      event: event(),
      locale: 'en',
      store: { name: undefined, url: undefined, logoUrl: 'https://loja.example/logo.png' },
    });
    expect(nameless.html).toContain('alt="" height="40"');
    expect(nameless.html).not.toContain('<a href="undefined"');
    expect(nameless.html).toContain('<html lang="en">');
  });

  it('keeps the subject on one line, whatever line breaks the store name holds', () => {
    const mail = renderEmail({
      event: event(),
      locale: 'pt-BR',
      store: { name: 'Loja\r\nBcc: todos@exemplo.com\n\nDemo', url: undefined, logoUrl: undefined },
    });
    expect(mail.subject).toBe('Loja Bcc: todos@exemplo.com Demo: Seu pedido PED-1 foi entregue');
  });

  it('calls a parcel late once the event comes after the promise, as the tracking page does (shared/parcel-story.ts)', () => {
    const none = { name: undefined, url: undefined, logoUrl: undefined };
    const promise = { from: '2026-11-18', to: '2026-11-20', basis: 'platform' as const, parcels: 0 };
    const moving = { status: 'in-transit' as const, promise, lastEvent: undefined };
    // The event's timestamp (2026-11-24) is after the 20th: late, whatever the event (a stall here).
    const late = renderEmail({ event: event(moving, 'shipment.stalled'), locale: 'pt-BR', store: none });
    expect(late.subject).toBe('Seu pedido PED-1 está atrasado');
    expect(late.text).toContain('Passou da data prevista.');
    expect(late.text).toContain('Previsão de entrega: entre 18 e 20/11');
    expect(renderEmail({ event: event(moving), locale: 'en', store: none }).subject).toBe(
      'Your order PED-1 is late',
    );
    // On the promise's last day it is not late yet; out for delivery it still arrives today.
    const onTime = event({ ...moving, promise: { ...promise, to: '2026-11-24' } });
    expect(renderEmail({ event: onTime, locale: 'pt-BR', store: none }).subject).toBe(
      'Seu pedido PED-1 está a caminho',
    );
    const out = event({ ...moving, status: 'out-for-delivery' }, 'shipment.out_for_delivery');
    expect(renderEmail({ event: out, locale: 'pt-BR', store: none }).subject).toBe(
      'Seu pedido PED-1 saiu para entrega',
    );
  });
});
