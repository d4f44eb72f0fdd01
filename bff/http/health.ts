import { type Request, Router } from 'express';
import { isLoopbackAddress } from '../../shared/security/loopback.ts';
import type { Logger } from '../logger.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import type { RestClient } from '../upstream/rest-client.ts';

/** A readiness check: a name, and what is wrong (undefined when fine). */
export type ReadinessCheck = () => Promise<{ name: string; ok: boolean; detail?: string }>;

/** A code in the S10 form that no carrier issued: tracking it proves the key works and costs one call. */
const PROBE_CODE = 'AA000000005BR';

/** Upstream reachable with the configured key; cached so probes never spend the store's limit (≤ 2 calls/minute). */
export function upstreamCheck(
  client: Pick<RestClient, 'tracking'>,
  now: () => number = Date.now,
  ttlMs = 30_000,
): ReadinessCheck {
  let last: { at: number; result: { name: string; ok: boolean; detail?: string } } | undefined;
  return async () => {
    if (last && now() - last.at < ttlMs) return last.result;
    let result: { name: string; ok: boolean; detail?: string };
    try {
      await client.tracking([PROBE_CODE]);
      result = { name: 'upstream', ok: true };
    } catch (error) {
      const detail = isUpstreamError(error)
        ? error.failure === 'config'
          ? `the platform refused the secret key (${error.code ?? error.status})`
          : `the platform is not answering (${error.failure})`
        : 'the platform check failed';
      result = { name: 'upstream', ok: false, detail };
    }
    last = { at: now(), result };
    return result;
  };
}

/**
 * Whether a request may see readiness details: it reached the BFF straight from this machine (127.0.0.1 or ::1) and
 * not through a proxy (no forwarding header), so a reverse proxy on the same host does not open the details to all.
 */
export function isLocalOperator(req: Request): boolean {
  return (
    isLoopbackAddress(req.socket.remoteAddress) &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined
  );
}

/**
 * `/healthz` (alive) and `/readyz` (every check passes). The public sees `{ ok }` only; the checks with their details
 * (account state, what the platform said) are shown to a local operator (`isLocalOperator`) and written to the log.
 */
export function healthRoutes(checks: ReadinessCheck[], logger: Logger): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', async (req, res) => {
    const results = await Promise.all(checks.map((check) => check()));
    const ok = results.every((result) => result.ok);
    if (!ok) logger.warn({ checks: results }, 'not ready');
    res.setHeader('Cache-Control', 'no-store');
    res.status(ok ? 200 : 503).json(isLocalOperator(req) ? { ok, checks: results } : { ok });
  });
  return router;
}
