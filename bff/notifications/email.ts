import { html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { isLate, LATE_WORDS, lateStepApplies } from '../../shared/parcel-story.ts';
import { promiseDates, weekdayDate } from '../../shared/promise-text.ts';
import type { ShipmentEvent } from '../../shared/shipment-events.ts';
import type { BffConfig } from '../config.ts';
import { EMAIL_TEXTS } from './email-texts.ts';

/** A message ready for SMTP: subject, plain text and HTML (the same words in both). */
export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

export interface EmailInput {
  event: ShipmentEvent;
  locale: Locale;
  /** The recipient's first name, from the label (`recipient.nome`). */
  name?: string | undefined;
  store: BffConfig['store'];
}

/**
 * The shopper's e-mail for one event: in the order's language, naming the store and the status, with the tracking
 * code, the carrier's latest event and the signed link to the order's page. The HTML is a plain table with inline
 * styles (what mail clients render) and every value escaped.
 */
export function renderEmail({ event, locale, name, store }: EmailInput): EmailMessage {
  const t = EMAIL_TEXTS[locale];
  const { data } = event;
  const order = data.orderId ? t.order(data.orderId) : t.anOrder;
  const dates = data.promise ? promiseDates(data.promise, locale, weekdayDate) : undefined;
  // The tracking page's state, by the same function (shared/parcel-story.ts): late once the event comes after the
  // promise's last day while the parcel is still on its way.
  const late = lateStepApplies({
    status: data.status,
    late: isLate(data.status, data.promise, Date.parse(event.timestamp)),
  });
  const lateWords = LATE_WORDS[locale];
  const headline = late
    ? t.late(order)
    : event.type === 'shipment.stalled'
      ? t.stalled(order)
      : event.type === 'shipment.promise_at_risk'
        ? t.atRisk(order)
        : event.type === 'shipment.pickup_reminder'
          ? t.pickupReminder(order)
          : t.headline[data.status](order);
  const where = data.status === 'awaiting-pickup' ? data.lastEvent?.origin : undefined;
  const next = late
    ? lateWords.next
    : event.type === 'shipment.stalled'
      ? t.stalledNext
      : event.type === 'shipment.promise_at_risk' && dates
        ? t.atRiskNext(dates)
        : data.pickupBy
          ? t.pickupBy(weekdayDate(data.pickupBy, locale), where)
          : t.next[data.status](where);
  // The promise under the status while the parcel is on its way (an at-risk e-mail already says it).
  const promised = dates && event.type !== 'shipment.promise_at_risk' ? `${t.promised}: ${dates}` : undefined;
  const storeName = store.name ?? t.theStore;
  const first = name?.trim().split(/\s+/)[0];
  const subject = store.name ? `${store.name}: ${headline}` : headline;
  const last = data.lastEvent
    ? [
        data.lastEvent.description,
        [data.lastEvent.origin, data.lastEvent.destination].filter(Boolean).join(' → '),
      ]
        .filter(Boolean)
        .join(' — ')
    : undefined;

  const text = [
    t.greeting(first),
    '',
    `${headline}.`,
    next,
    ...(promised ? [promised] : []),
    '',
    ...(last ? [`${t.lastEvent}: ${last}`] : []),
    `${t.code}: ${data.trackingCode}`,
    '',
    `${t.button}: ${data.trackingUrl}`,
    '',
    '—',
    t.footer(storeName),
    ...(store.url ? [store.url] : []),
  ].join('\n');

  const logo = store.logoUrl
    ? html`<img src="${store.logoUrl}" alt="${store.name ?? ''}" height="40" style="height:40px;width:auto;vertical-align:middle;margin-right:8px">`
    : '';
  const brand = html`${logo}<strong style="font-size:18px;vertical-align:middle">${store.name ?? ''}</strong>`;
  const body = html`<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${subject}</title></head>
<body style="margin:0;padding:0;background:#f6f8fa;color:#1f2328;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f6f8fa"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border:1px solid #d0d7de;border-radius:8px">
<tr><td style="padding:20px 24px 8px">${store.url ? html`<a href="${store.url}" style="color:#1f2328;text-decoration:none">${brand}</a>` : brand}</td></tr>
<tr><td style="padding:8px 24px 0">
<p style="margin:0 0 12px;font-size:15px">${t.greeting(first)}</p>
<h1 style="margin:0 0 8px;font-size:22px;line-height:1.3">${headline}</h1>
<p style="margin:0 0 16px;font-size:15px;line-height:1.5">${next}</p>
${promised ? html`<p style="margin:0 0 16px;font-size:15px;line-height:1.5"><strong>${promised}</strong></p>` : ''}
${last ? html`<p style="margin:0 0 4px;font-size:13px;color:#57606a">${t.lastEvent}</p><p style="margin:0 0 16px;font-size:15px">${last}</p>` : ''}
<p style="margin:0 0 4px;font-size:13px;color:#57606a">${t.code}</p>
<p style="margin:0 0 20px;font-size:16px;font-family:Menlo,Consolas,monospace;letter-spacing:1px">${data.trackingCode}</p>
<p style="margin:0 0 20px"><a href="${data.trackingUrl}" style="display:inline-block;background:#0a5bd3;color:#ffffff;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">${t.button}</a></p>
<p style="margin:0 0 4px;font-size:12px;color:#57606a">${t.linkNote}</p>
<p style="margin:0 0 20px;font-size:12px;word-break:break-all"><a href="${data.trackingUrl}" style="color:#0a5bd3">${data.trackingUrl}</a></p>
</td></tr>
<tr><td style="padding:12px 24px 20px;border-top:1px solid #d0d7de;font-size:12px;color:#57606a">${t.footer(storeName)}${store.url ? html` <a href="${store.url}" style="color:#0a5bd3">${store.url}</a>` : ''}</td></tr>
</table>
</td></tr></table>
</body>
</html>
`;
  return { subject: subject.replace(/[\r\n]+/g, ' '), text, html: body.text };
}
