/**
 * The servers that receive what the BFF sends, for tests: a real SMTP server (its e-mails) and a webhook receiver (its
 * signed deliveries). The database and cache servers the BFF talks to are in `servers.ts`.
 */
/** One message an `SmtpServer` received, as a mail client would read it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The raw message as sent over the wire (headers and MIME parts). */
  raw: string;
}

export interface SmtpServer {
  /** `smtp://127.0.0.1:<port>`, for `BFF_SMTP_URL`. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived (in all), with them. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Addresses answered `550` at RCPT TO (a mailbox that does not exist). */
  refuse: Set<string>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on a free port of 127.0.0.1, in this process: the BFF holds a whole
 * SMTP conversation with it (EHLO, MAIL FROM, RCPT TO, DATA) and each message is parsed with `mailparser`, as a mail
 * client would. Plain text only (no STARTTLS offered), any sender, no authentication required.
 */
export async function startSmtp(): Promise<SmtpServer> {
  const { SMTPServer } = await import('smtp-server');
  const { simpleParser } = await import('mailparser');
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address)) {
        const error = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((mail) => {
            received.push({
              from: mail.from?.text ?? '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              raw,
            });
            for (const wake of waiters.splice(0)) wake();
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${received.length} of ${count} e-mails within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One request a `WebhookReceiver` got, with what the reference library said of its signature. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  body: string;
  /** The payload as `standardwebhooks`' `Webhook.verify` returned it; undefined when it refused the request. */
  verified: unknown;
  /** Why the reference library refused it. */
  refusal?: string;
  /** What the receiver answered (`hang`: nothing, the connection left open). */
  answered: number | 'hang';
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the answer to the n-th request (0-based): a status, or `hang`. Default 200. */
  answer: (n: number, webhook: ReceivedWebhook) => number | 'hang';
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * The merchant's endpoint: an HTTP server on a free port of 127.0.0.1 that checks every request with the Standard
 * Webhooks reference library (`standardwebhooks`, `Webhook.verify`: signature and timestamp tolerance) and records it.
 */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const { Webhook } = await import('standardwebhooks');
  const { createServer: createHttpServer } = await import('node:http');
  const verifier = new Webhook(secret);
  const received: ReceivedWebhook[] = [];
  const hanging: import('node:http').ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    answer: () => 200,
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${received.length} of ${count} webhooks within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received.slice(0, count);
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const webhook: ReceivedWebhook = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        body,
        verified: undefined,
        answered: 200,
      };
      try {
        webhook.verified = verifier.verify(body, headers);
      } catch (error) {
        webhook.refusal = error instanceof Error ? error.message : String(error);
      }
      const answer = webhook.verified === undefined ? 400 : receiver.answer(received.length, webhook);
      webhook.answered = answer;
      received.push(webhook);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  return receiver;
}
