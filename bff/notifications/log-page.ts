import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { ShipmentEventSchema } from '../../shared/shipment-events.ts';
import { formatWhen } from '../desk/format.ts';
import type { Delivery } from './outbox.ts';

/**
 * The desk's notification log as a page (`/admin/notifications`), in the merchant's language (pt-BR, en, es, as the
 * desk's other pages: `?lang=`, its cookie, `Accept-Language`): every e-mail and webhook, its state and "send again".
 * A pure function of its view, as bff/desk's pages; times in Brasília time.
 */

/** The log's words in Portuguese: the catalog `EN` and `ES` are typed against. */
const PT_BR = {
  title: 'Notificações',
  intro:
    'E-mails ao comprador e webhooks à loja, dos mais recentes aos mais antigos. Um envio que falha é repetido por 24 horas.',
  empty: 'Nenhuma notificação ainda.',
  caption: 'Notificações enviadas, com falha ou tentando de novo',
  colWhen: 'Quando (horário de Brasília)',
  colOrder: 'Pedido',
  colEvent: 'Evento',
  colTo: 'Para',
  colState: 'Situação',
  colAction: 'Ação',
  email: 'e-mail',
  tries: (n: number) => `${n} tentativas`,
  resend: 'Enviar de novo',
  states: { pending: 'na fila', retrying: 'tentando de novo', sent: 'enviada', failed: 'falhou' },
  types: {
    'shipment.status_changed': 'mudou de situação',
    'shipment.out_for_delivery': 'saiu para entrega',
    'shipment.awaiting_pickup': 'aguarda retirada',
    'shipment.delivered': 'entregue',
    'shipment.returned': 'devolvido',
    'shipment.stalled': 'parado',
    'shipment.promise_at_risk': 'prazo em risco',
    'shipment.pickup_reminder': 'lembrete de retirada',
  },
};

const EN: typeof PT_BR = {
  title: 'Notifications',
  intro:
    'E-mails to the shopper and webhooks to the store, newest first. A delivery that fails is tried again for 24 hours.',
  empty: 'No notifications yet.',
  caption: 'Notifications sent, failed or being tried again',
  colWhen: 'When (Brasília time)',
  colOrder: 'Order',
  colEvent: 'Event',
  colTo: 'To',
  colState: 'State',
  colAction: 'Action',
  email: 'e-mail',
  tries: (n) => `${n} tries`,
  resend: 'Send again',
  states: { pending: 'queued', retrying: 'trying again', sent: 'sent', failed: 'failed' },
  types: {
    'shipment.status_changed': 'status changed',
    'shipment.out_for_delivery': 'out for delivery',
    'shipment.awaiting_pickup': 'awaiting pickup',
    'shipment.delivered': 'delivered',
    'shipment.returned': 'returned',
    'shipment.stalled': 'stalled',
    'shipment.promise_at_risk': 'promise at risk',
    'shipment.pickup_reminder': 'pickup reminder',
  },
};

const ES: typeof PT_BR = {
  title: 'Notificaciones',
  intro:
    'Correos al comprador y webhooks a la tienda, de los más recientes a los más antiguos. Un envío que falla se repite durante 24 horas.',
  empty: 'Aún no hay notificaciones.',
  caption: 'Notificaciones enviadas, fallidas o reintentándose',
  colWhen: 'Cuándo (hora de Brasilia)',
  colOrder: 'Pedido',
  colEvent: 'Evento',
  colTo: 'Para',
  colState: 'Estado',
  colAction: 'Acción',
  email: 'correo',
  tries: (n) => `${n} intentos`,
  resend: 'Enviar de nuevo',
  states: { pending: 'en cola', retrying: 'reintentando', sent: 'enviada', failed: 'falló' },
  types: {
    'shipment.status_changed': 'cambió de estado',
    'shipment.out_for_delivery': 'salió a reparto',
    'shipment.awaiting_pickup': 'espera retiro',
    'shipment.delivered': 'entregado',
    'shipment.returned': 'devuelto',
    'shipment.stalled': 'detenido',
    'shipment.promise_at_risk': 'plazo en riesgo',
    'shipment.pickup_reminder': 'recordatorio de retiro',
  },
};

export const LOG_MESSAGES: Record<Locale, typeof PT_BR> = { 'pt-BR': PT_BR, en: EN, es: ES };

/** One delivery of the log, as the page shows it and the desk's API answers it. */
export function logRowOf(delivery: Delivery) {
  const event = ShipmentEventSchema.safeParse(JSON.parse(delivery.body));
  const data = event.success ? event.data.data : undefined;
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    type: delivery.type,
    channel: delivery.channel,
    target: delivery.target,
    state: delivery.state,
    tries: delivery.tries,
    lastError: delivery.lastError,
    createdAt: new Date(delivery.createdAt).toISOString(),
    nextAt:
      delivery.state === 'pending' || delivery.state === 'retrying'
        ? new Date(delivery.nextAt).toISOString()
        : null,
    sentAt: delivery.sentAt === null ? null : new Date(delivery.sentAt).toISOString(),
    orderId: data?.orderId ?? null,
    volume: data?.volume ?? null,
    trackingCode: data?.trackingCode ?? null,
    status: data?.status ?? null,
  };
}

export type LogRow = ReturnType<typeof logRowOf>;

export interface LogView {
  lang: Locale;
  csrf: string;
  rows: readonly LogRow[];
}

/** The log's page body: a heading, what it lists, and a row per delivery (a card per row on a phone: desk.css). */
export function notificationsBody(view: LogView): Html {
  const t = LOG_MESSAGES[view.lang];
  const rows = view.rows.map(
    (row) => html`<tr>
<td class="when">${formatWhen(row.createdAt, view.lang)}</td>
<td class="order">${row.orderId ? `${row.orderId} #${row.volume ?? 1}` : '—'}<br><code>${row.trackingCode ?? ''}</code></td>
<td data-label="${t.colEvent}">${t.types[row.type]}</td>
<td data-label="${t.colTo}">${row.channel === 'email' ? `${t.email}: ${row.target}` : 'webhook'}</td>
<td data-label="${t.colState}">${t.states[row.state]}${row.tries > 1 ? ` (${t.tries(row.tries)})` : ''}${row.lastError ? html`<br><small>${row.lastError}</small>` : ''}</td>
<td><form method="post" action="/admin/notifications/${row.id}/resend">
<input type="hidden" name="csrf" value="${view.csrf}">
<button class="secondary" type="submit" aria-label="${t.resend}: ${t.types[row.type]}, ${row.trackingCode ?? ''}">${t.resend}</button>
</form></td>
</tr>`,
  );
  return html`<h1>${t.title}</h1>
<p>${t.intro}</p>
${
  rows.length === 0
    ? html`<p>${t.empty}</p>`
    : html`<table class="deliveries">
<caption>${t.caption}</caption>
<thead><tr><th scope="col">${t.colWhen}</th><th scope="col">${t.colOrder}</th><th scope="col">${t.colEvent}</th><th scope="col">${t.colTo}</th><th scope="col">${t.colState}</th><th scope="col">${t.colAction}</th></tr></thead>
<tbody>${rows}</tbody>
</table>`
}
`;
}
