import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Arrival, hostAllowed, type OriginPolicy, originAllowed } from './origin-policy.ts';

/** Which header a request is refused for (`Origin` when it is present and not allowed, else `Host`), or undefined. */
export function rebindingRefusal(policy: OriginPolicy, arrival: Arrival): 'Host' | 'Origin' | undefined {
  const origin = arrival.headers.origin;
  if (origin !== undefined && !originAllowed(policy, arrival, origin)) return 'Origin';
  return hostAllowed(policy, arrival) ? undefined : 'Host';
}

/**
 * DNS-rebinding protection for an MCP endpoint (MCP transport security; docs/architecture.md, "OAuth for MCP"), in
 * every auth mode and before anything else runs: a `Host` that is not this server's, or an `Origin` that is
 * present and not allowed, gets 403 with the JSON-RPC error the MCP SDK's own protection answers (-32000). The
 * message names the `Origin` when it is the one refused, else the `Host`.
 *
 * An Express middleware without Express: it uses only Node's request and response.
 */
export function rebindingGuard(
  policy: OriginPolicy,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const refused = rebindingRefusal(policy, req);
    if (!refused) return next();
    const body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: `Forbidden: ${refused} not allowed` },
      id: null,
    };
    res.statusCode = 403;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(body));
  };
}
