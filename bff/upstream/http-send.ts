import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { messageOf } from '../logger.ts';

/** One upstream answer: the status, a header reader and the body text. */
export interface Answer {
  status: number;
  header(name: string): string | undefined;
  text: string;
}

/** Sends one JSON POST; rejects on network failure or when `signal` aborts. */
export type Send = (
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
) => Promise<Answer>;

/** A network failure (refused, reset, DNS, TLS): retried like the global fetch's `TypeError: fetch failed`. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/**
 * JSON POSTs over node:http(s) with kept-alive connections: no WHATWG Request/Response/stream objects per call, which
 * are most of what a call through the global fetch costs here (profiled for bench figure 5).
 */
export function createHttpSend(): Send {
  const http = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const https = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
  return (url, headers, body, signal) =>
    new Promise<Answer>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const fail = (error: Error) => reject(signal.aborted ? signal.reason : new NetworkError(error.message));
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: secure ? https : http,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', fail);
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              header: (name) => {
                const value = res.headers[name.toLowerCase()];
                return Array.isArray(value) ? value[0] : value;
              },
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', fail);
      req.end(body);
    });
}

/** A `Send` over a `fetch` function: how tests script the upstream's answers. */
export function sendThroughFetch(fetchImpl: typeof fetch): Send {
  return async (url, headers, body, signal) => {
    let response: Response;
    try {
      response = await fetchImpl(url, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(messageOf(error));
    }
    const text = await response.text();
    return { status: response.status, header: (name) => response.headers.get(name) ?? undefined, text };
  };
}
