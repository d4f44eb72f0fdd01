import express, { Router } from 'express';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors.ts';
import { type Html, html } from '../../shared/html.ts';
import { ShipmentEventSchema } from '../../shared/shipment-events.ts';
import { requireAdminSession } from '../admin/gate.ts';
import { rememberReturn } from '../admin/return-to.ts';
import type { AdminSessions } from '../admin/session.ts';
import { formatWhen } from '../desk/format.ts';
import { sendDeskPage } from '../desk/layout.ts';
import { DELIVERY_STATES, type Delivery, type Outbox } from './outbox.ts';

export interface NotificationRoutesDeps {
  /** The merchant's `/admin` sessions: the same login as `/admin/agents` and the desk. */
  sessions: AdminSessions;
  outbox: Outbox;
  /** Whether the public URL is https (the return-after-login cookie is then `Secure`). */
  secure?: boolean;
  /** Kicked after "send again", so the delivery goes now rather than at the next poll. */
  dispatch: () => void;
  now?: () => number;
}

/** One line of the log, as the desk's API answers it. */
function toEntry(delivery: Delivery) {
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

const STATE_LABELS: Record<Delivery['state'], string> = {
  pending: 'na fila',
  retrying: 'tentando de novo',
  sent: 'enviada',
  failed: 'falhou',
};

const TYPE_LABELS: Record<Delivery['type'], string> = {
  'shipment.status_changed': 'mudou de situação',
  'shipment.out_for_delivery': 'saiu para entrega',
  'shipment.awaiting_pickup': 'aguarda retirada',
  'shipment.delivered': 'entregue',
  'shipment.returned': 'devolvido',
  'shipment.stalled': 'parado',
  'shipment.promise_at_risk': 'prazo em risco',
  'shipment.pickup_reminder': 'lembrete de retirada',
};

/**
 * The desk's notification log, behind the `/admin` login (`BFF_ADMIN_PASSWORD`): every e-mail and webhook with its
 * state (sent, failed, retrying) and "send again". A JSON API under `/admin/api/` for the desk and for scripts —
 * `GET /admin/api/notifications?state=` and `POST /admin/api/notifications/<id>/resend` (cookie, `X-CSRF-Token` and
 * an `Origin` of our own, as every `/admin/api/` post) — and a server-rendered page, `/admin/notifications`.
 */
export function notificationRoutes(deps: NotificationRoutesDeps): Router {
  const { sessions, outbox } = deps;
  const now = deps.now ?? Date.now;
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const api = requireAdminSession(sessions);

  router.get('/admin/api/notifications', api, async (req, res) => {
    const state = z.optional(z.enum(DELIVERY_STATES)).safeParse(req.query.state || undefined);
    if (!state.success) throw new ApiError('invalid_body', `state: one of ${DELIVERY_STATES.join(', ')}`);
    res.json({ notifications: (await outbox.list({ state: state.data, limit: 200 })).map(toEntry) });
  });

  router.post('/admin/api/notifications/:id/resend', api, async (req, res) => {
    const resent = await outbox.resend(String(req.params.id), now());
    if (!resent) throw new ApiError('not_found', 'No such notification.');
    deps.dispatch();
    res.json({ notification: toEntry(resent) });
  });

  router.get('/admin/notifications', async (req, res) => {
    const current = await sessions.current(req);
    if (!current) {
      // Logging in comes back here (bff/admin/return-to.ts).
      rememberReturn(res, req.originalUrl, deps.secure ?? false);
      return res.redirect(303, '/admin/agents');
    }
    const list = await outbox.list({ limit: 200 });
    const rows: Html[] = list.map((delivery) => {
      const entry = toEntry(delivery);
      // `data-label`: the column's name beside each value where a phone shows a row as a card (desk.css).
      return html`<tr>
<td class="when">${formatWhen(entry.createdAt, 'pt-BR')}</td>
<td class="order">${entry.orderId ? `${entry.orderId} #${entry.volume ?? 1}` : '—'}<br><code>${entry.trackingCode ?? ''}</code></td>
<td data-label="Evento">${TYPE_LABELS[delivery.type]}</td>
<td data-label="Para">${delivery.channel === 'email' ? `e-mail: ${delivery.target}` : 'webhook'}</td>
<td data-label="Situação">${STATE_LABELS[delivery.state]}${delivery.tries > 1 ? ` (${delivery.tries} tentativas)` : ''}${delivery.lastError ? html`<br><small>${delivery.lastError}</small>` : ''}</td>
<td><form method="post" action="/admin/notifications/${delivery.id}/resend">
<input type="hidden" name="csrf" value="${current.csrf}">
<button class="secondary" type="submit" aria-label="Enviar de novo: ${TYPE_LABELS[delivery.type]}, ${entry.trackingCode ?? ''}">Enviar de novo</button>
</form></td>
</tr>`;
    });
    sendDeskPage(res, 200, {
      lang: 'pt-BR',
      title: 'Notificações',
      section: 'notifications',
      session: current,
      here: '/admin/notifications',
      body: html`<h1>Notificações</h1>
<p>E-mails ao comprador e webhooks à loja, dos mais recentes aos mais antigos. Um envio que falha é repetido por 24 horas.</p>
${
  rows.length === 0
    ? html`<p>Nenhuma notificação ainda.</p>`
    : html`<table class="deliveries">
<caption>Notificações enviadas, com falha ou tentando de novo</caption>
<thead><tr><th scope="col">Quando</th><th scope="col">Pedido</th><th scope="col">Evento</th><th scope="col">Para</th><th scope="col">Situação</th><th scope="col">Ação</th></tr></thead>
<tbody>${rows}</tbody>
</table>`
}
`,
    });
  });

  router.post(
    '/admin/notifications/:id/resend',
    form,
    requireAdminSession(sessions, 'form'),
    async (req, res) => {
      if (await outbox.resend(String(req.params.id), now())) deps.dispatch();
      res.redirect(303, '/admin/notifications');
    },
  );

  return router;
}
