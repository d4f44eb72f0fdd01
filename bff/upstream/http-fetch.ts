import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * A `fetch` for the upstream REST calls over node:http with kept-alive connections. It does what the BFF needs (a
 * JSON POST and its answer, abort signals for ky's timeouts) at a fraction of the cost of the global fetch per call:
 * the hop to the platform is most of what the BFF's MCP adds to a quote (bench figure 5).
 */
export function createHttpFetch(): typeof fetch {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 64 }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
  };
  const httpFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const signal = init?.signal ?? request.signal;
    signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        { method: request.method, headers, agent, ...(signal ? { signal } : {}) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode ?? 502;
            const noBody = status === 204 || status === 304 || request.method === 'HEAD';
            resolve(
              new Response(noBody ? null : Buffer.concat(chunks), {
                status,
                statusText: res.statusMessage ?? '',
                headers: toHeaders(res.headers),
              }),
            );
          });
        },
      );
      req.on('error', (error) => {
        // The same shape the global fetch gives a network failure, so ky classifies it as one.
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
      });
      req.end(body);
    });
  };
  return httpFetch as typeof fetch;
}
