import { request } from 'node:http';

/** An answer as a test reads it. */
export interface AddressedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * An HTTP request sent from a given local address (any 127.0.0.0/8 address on Linux): a distinct client as the
 * server's socket sees it, with no proxy and no forwarded header involved. Tests use it to stand in for many machines.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<AddressedAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        localAddress,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The `n`th of many distinct loopback addresses (127.0.1.0 onwards: not 127.0.0.1, which tests use for themselves). */
export function loopbackAddress(n: number): string {
  return `127.0.${1 + (n >> 8)}.${n & 255}`;
}
