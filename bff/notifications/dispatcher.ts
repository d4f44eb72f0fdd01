import * as z from 'zod/mini';
import { localeOf } from '../../shared/locale.ts';
import { ShipmentEventSchema } from '../../shared/shipment-events.ts';
import { OutboxDrain } from '../../shared/sql/outbox.ts';
import type { BffConfig } from '../config.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import type { Logger } from '../logger.ts';
import { renderEmail } from './email.ts';
import type { MailPort } from './mailer.ts';
import type { Delivery, Outbox } from './outbox.ts';
import { DeliveryError, type WebhookSender } from './webhook.ts';

/** The parts of a label's request an e-mail needs (the ledger keeps the request as sent). */
const RecipientSchema = z.object({
  recipient: z.object({ nome: z.optional(z.string()), email: z.optional(z.string()) }),
});

export interface DispatcherOptions {
  outbox: Outbox;
  ledger: Pick<LedgerStore, 'get'>;
  webhook: WebhookSender | undefined;
  mailer: MailPort | undefined;
  store: BffConfig['store'];
  logger: Logger;
  now?: () => number;
  random?: () => number;
  /** How long a claimed delivery is this sender's (default 60 s: longer than any try). */
  leaseMs?: number;
  /** Deliveries sent at once (default 8). */
  batch?: number;
}

/**
 * Sends what the outbox holds, due first: webhooks to the merchant, e-mails to the shopper. Each delivery is claimed
 * for a lease, tried once, and marked sent, retrying (exponential backoff for 24 h) or failed. Any instance may run
 * one; the outbox decides who sends what.
 */
export class Dispatcher {
  private readonly options: Required<Omit<DispatcherOptions, 'webhook' | 'mailer'>> &
    Pick<DispatcherOptions, 'webhook' | 'mailer'>;
  private readonly outboxDrain: OutboxDrain<Delivery>;

  constructor(options: DispatcherOptions) {
    this.options = { now: Date.now, random: Math.random, leaseMs: 60_000, batch: 8, ...options };
    const { outbox, now, leaseMs, batch } = this.options;
    this.outboxDrain = new OutboxDrain(
      () => outbox.claim(batch, now(), now() + leaseMs),
      (delivery) => this.deliver(delivery),
    );
  }

  /**
   * Sends everything due now; answers how many tries it made. Calls while one runs join it, and make it look once
   * more before it ends (an event written meanwhile is not left for the next tick).
   */
  drain(): Promise<number> {
    return this.outboxDrain.drain();
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { outbox, logger, now, random } = this.options;
    try {
      await this.send(delivery);
      await outbox.sent(delivery.id, now());
      logger.info(
        {
          delivery: delivery.id,
          event: delivery.eventId,
          type: delivery.type,
          channel: delivery.channel,
          tries: delivery.tries,
        },
        'notification sent',
      );
    } catch (error) {
      const failure =
        error instanceof DeliveryError ? error : new DeliveryError('an unexpected error (see the BFF log)');
      if (!(error instanceof DeliveryError))
        logger.error({ err: error, delivery: delivery.id }, 'notification: unexpected error');
      const state = await outbox.retry(
        delivery.id,
        { tries: delivery.tries, error: failure.message, permanent: failure.permanent },
        now(),
        random,
      );
      logger.warn(
        {
          delivery: delivery.id,
          event: delivery.eventId,
          channel: delivery.channel,
          tries: delivery.tries,
          state,
          error: failure.message,
        },
        state === 'failed' ? 'notification failed for good' : 'notification failed; will retry',
      );
    }
  }

  private async send(delivery: Delivery): Promise<void> {
    const { webhook, mailer } = this.options;
    if (delivery.channel === 'webhook') {
      if (!webhook) throw new DeliveryError('webhooks are off (BFF_WEBHOOK_URL is not set)', true);
      await webhook.send(delivery.eventId, delivery.body);
      return;
    }
    if (!mailer) throw new DeliveryError('e-mail is off (BFF_SMTP_URL is not set)', true);
    const event = ShipmentEventSchema.parse(JSON.parse(delivery.body));
    const attempt = await this.options.ledger.get(delivery.attemptId);
    const request = attempt ? RecipientSchema.safeParse(JSON.parse(attempt.request)) : undefined;
    const message = renderEmail({
      event,
      locale: localeOf(attempt?.locale) ?? 'pt-BR',
      name: request?.success ? request.data.recipient.nome : undefined,
      store: this.options.store,
    });
    await mailer.send(delivery.target, message);
  }
}
