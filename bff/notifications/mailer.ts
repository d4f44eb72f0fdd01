import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailMessage } from './email.ts';
import { DeliveryError } from './webhook.ts';

/** Sends one message; throws `DeliveryError` (permanent when the server refused the address for good). */
export interface MailPort {
  send(to: string, message: EmailMessage): Promise<void>;
  close(): void;
}

/**
 * The shopper's e-mails over SMTP with nodemailer (`BFF_SMTP_URL`: `smtp://` with STARTTLS when the server offers it,
 * or `smtps://`; credentials in the URL), from `BFF_MAIL_FROM`. Timeouts keep a hung server from holding a delivery's
 * lease: a try ends within about 40 s.
 */
export class SmtpMailer implements MailPort {
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(options: { url: string; from: string }) {
    this.from = options.from;
    const url = new URL(options.url);
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
      secure: url.protocol === 'smtps:',
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(to: string, message: EmailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to, ...message });
    } catch (error) {
      const { responseCode, command } = (error ?? {}) as { responseCode?: number; command?: string };
      // A 5xx answer to RCPT TO is the server refusing this address for good; anything else may pass later.
      const permanent = command === 'RCPT TO' && responseCode !== undefined && responseCode >= 500;
      throw new DeliveryError(
        responseCode
          ? `the mail server answered ${responseCode}${command ? ` to ${command}` : ''}`
          : 'the mail server could not be reached',
        permanent,
      );
    }
  }

  close(): void {
    this.transport.close();
  }
}
