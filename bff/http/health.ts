import { Router } from 'express';
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
          : `the platform is not answering (${error.message})`
        : 'the platform check failed';
      result = { name: 'upstream', ok: false, detail };
    }
    last = { at: now(), result };
    return result;
  };
}

/** `/healthz` (alive) and `/readyz` (every check passes). */
export function healthRoutes(checks: ReadinessCheck[], logger: Logger): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(checks.map((check) => check()));
    const ok = results.every((result) => result.ok);
    if (!ok) logger.warn({ checks: results }, 'not ready');
    res.status(ok ? 200 : 503).json({ ok, checks: results });
  });
  return router;
}
