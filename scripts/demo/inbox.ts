import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../../shared/html.ts';

/**
 * `npm start`'s outbox: what the shoppers and the merchant would receive, readable in a browser. A real SMTP server
 * (the `smtp-server` package, in this process, on a free loopback port) takes the BFF's e-mails in a whole SMTP
 * conversation, each parsed by `mailparser` as a mail client would; `/hooks` takes the BFF's webhooks and checks each
 * signature with the Standard Webhooks reference library. `/mail` and `/webhooks` list them, newest first. Both
 * packages are devDependencies: `npm start` is a development command. Only on 127.0.0.1; the last 200 of each are kept.
 */

export interface InboxMail {
  at: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface InboxWebhook {
  at: number;
  id: string;
  type: string;
  verified: boolean;
  refusal?: string;
  body: string;
}

export interface DemoInbox {
  /** `http://127.0.0.1:<port>`: the pages. */
  url: string;
  /** `smtp://127.0.0.1:<port>`, for `BFF_SMTP_URL`. */
  smtpUrl: string;
  /** `<url>/hooks`, for `BFF_WEBHOOK_URL`. */
  webhookUrl: string;
  mails: InboxMail[];
  webhooks: InboxWebhook[];
  close(): Promise<void>;
}

const KEEP = 200;

/** A time as Brasília reads it (the desk's clock): `27/11/2026 14:05:09`. */
function brasilia(at: number): string {
  return new Intl.DateTimeFormat('pt-BR', {
    dateStyle: 'short',
    timeStyle: 'medium',
    timeZone: 'America/Sao_Paulo',
  }).format(new Date(at));
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f8fa;--fg:#1f2328;--muted:#57606a;--card:#fff;--border:#d0d7de;--link:#0a5bd3;--ok:#116329;--bad:#a40e26}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--border:#30363d;--link:#58a6ff;--ok:#3fb950;--bad:#ff7b72}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{padding:12px 16px;border-bottom:1px solid var(--border);background:var(--card)}header nav a{margin-right:16px}
main{max-width:960px;margin:0 auto;padding:16px}a{color:var(--link)}h1{font-size:1.4rem;margin:0 0 8px}
.lead{color:var(--muted);margin:0 0 16px}ul.list{list-style:none;margin:0;padding:0}
ul.list li{background:var(--card);border:1px solid var(--border);border-radius:8px;padding:12px 14px;margin:0 0 10px}
.when{color:var(--muted);font-size:.9rem}.subject{font-weight:600;display:block;margin:2px 0}
.to{color:var(--muted);font-size:.9rem;word-break:break-all}.ok{color:var(--ok);font-weight:600}.bad{color:var(--bad);font-weight:600}
pre{white-space:pre-wrap;word-break:break-word;background:var(--bg);border:1px solid var(--border);border-radius:6px;padding:8px;font-size:.85rem;margin:8px 0 0}
iframe{width:100%;height:70vh;border:1px solid var(--border);border-radius:8px;background:#fff}
.empty{color:var(--muted)}code{font-size:.9rem}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10"><title>${escapeHtml(title)} — frete-kit demo</title><style>${STYLE}</style></head>
<body><header><nav><strong>frete-kit demo</strong> · <a href="/mail">E-mails</a><a href="/webhooks">Webhooks</a></nav></header>
<main>${body}</main></body></html>`;
}

function mailList(mails: readonly InboxMail[]): string {
  const items = mails
    .map(
      (mail, i) => `<li><span class="when">${brasilia(mail.at)}</span>
<a class="subject" href="/mail/${mails.length - 1 - i}">${escapeHtml(mail.subject)}</a>
<span class="to">para ${escapeHtml(mail.to.join(', '))}</span></li>`,
    )
    .join('');
  return page(
    'E-mails',
    `<h1>E-mails dos compradores</h1>
<p class="lead">O que o BFF enviou por SMTP (horário de Brasília), o mais recente primeiro. A página se atualiza a cada 10 s.</p>
${mails.length ? `<ul class="list">${items}</ul>` : '<p class="empty">Nenhum e-mail ainda: emita uma etiqueta com um e-mail de destinatário e espere o pacote andar.</p>'}`,
  );
}

function mailPage(mail: InboxMail, n: number): string {
  return page(
    mail.subject,
    `<p><a href="/mail">← E-mails</a></p><h1>${escapeHtml(mail.subject)}</h1>
<p class="lead">${brasilia(mail.at)} · de ${escapeHtml(mail.from)} · para ${escapeHtml(mail.to.join(', '))}</p>
<iframe title="${escapeHtml(mail.subject)}" sandbox src="/mail/${n}/html"></iframe>
<h2>Texto</h2><pre>${escapeHtml(mail.text)}</pre>`,
  );
}

function webhookList(webhooks: readonly InboxWebhook[]): string {
  const items = webhooks
    .map(
      (hook) => `<li><span class="when">${brasilia(hook.at)}</span>
<span class="subject">${escapeHtml(hook.type)} <span class="${hook.verified ? 'ok' : 'bad'}">${hook.verified ? 'assinatura válida' : `recusado: ${escapeHtml(hook.refusal ?? '')}`}</span></span>
<span class="to"><code>webhook-id: ${escapeHtml(hook.id)}</code></span>
<pre>${escapeHtml(pretty(hook.body))}</pre></li>`,
    )
    .join('');
  return page(
    'Webhooks',
    `<h1>Webhooks do lojista</h1>
<p class="lead">O que o BFF entregou em <code>/hooks</code>, cada assinatura conferida com a biblioteca de referência do Standard Webhooks (horário de Brasília), o mais recente primeiro.</p>
${webhooks.length ? `<ul class="list">${items}</ul>` : '<p class="empty">Nenhum webhook ainda.</p>'}`,
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function readBody(req: IncomingMessage, limit = 256_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the SMTP server and the pages; `port` 0 for any free one. */
export async function startDemoInbox(options: { port: number; webhookSecret: string }): Promise<DemoInbox> {
  const { SMTPServer } = await import('smtp-server');
  const { simpleParser } = await import('mailparser');
  const { Webhook } = await import('standardwebhooks');
  const verifier = new Webhook(options.webhookSecret);
  const mails: InboxMail[] = [];
  const webhooks: InboxWebhook[] = [];
  const keep = <T>(list: T[], item: T) => {
    list.unshift(item);
    list.length = Math.min(list.length, KEEP);
  };

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1_000_000,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          keep(mails, {
            at: Date.now(),
            from: mail.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const send = (res: ServerResponse, status: number, type: string, body: string, csp?: string) => {
    res.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...(csp ? { 'content-security-policy': csp } : {}),
    });
    res.end(body);
  };
  const http = createHttpServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://inbox.invalid').pathname;
      if (req.method === 'POST' && path === '/hooks') {
        const body = await readBody(req);
        const headers = {
          'webhook-id': String(req.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        };
        let verified = false;
        let refusal: string | undefined;
        try {
          verifier.verify(body, headers);
          verified = true;
        } catch (error) {
          refusal = error instanceof Error ? error.message : String(error);
        }
        const type = (() => {
          try {
            return String((JSON.parse(body) as { type?: unknown }).type ?? '?');
          } catch {
            return '?';
          }
        })();
        keep(webhooks, {
          at: Date.now(),
          id: headers['webhook-id'],
          type,
          verified,
          body,
          ...(refusal ? { refusal } : {}),
        });
        return send(res, verified ? 200 : 400, 'text/plain', verified ? 'ok' : 'bad signature');
      }
      if (req.method !== 'GET') return send(res, 405, 'text/plain', 'method not allowed');
      const strict = "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none'";
      if (path === '/' || path === '/mail')
        return send(res, 200, 'text/html; charset=utf-8', mailList(mails), strict);
      if (path === '/webhooks')
        return send(res, 200, 'text/html; charset=utf-8', webhookList(webhooks), strict);
      const match = /^\/mail\/(\d+)(\/html)?$/.exec(path);
      const mail = match ? mails[mails.length - 1 - Number(match[1])] : undefined;
      if (match && mail) {
        // The message's own HTML, in a sandboxed frame: no script runs, images load as a mail client would.
        if (match[2])
          return send(
            res,
            200,
            'text/html; charset=utf-8',
            mail.html,
            "sandbox; img-src * data:; style-src 'unsafe-inline'",
          );
        return send(res, 200, 'text/html; charset=utf-8', mailPage(mail, Number(match[1])), strict);
      }
      return send(res, 404, 'text/plain', 'not found');
    })().catch(() => send(res, 500, 'text/plain', 'error'));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    webhookUrl: `${url}/hooks`,
    mails,
    webhooks,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
