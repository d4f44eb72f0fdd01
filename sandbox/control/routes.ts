import type { Router } from 'express';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { TRACKING_SCENARIOS } from '../carrier/tracking.ts';
import { FaultSchema } from '../faults/faults.ts';
import { readJsonBody } from '../http/body.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { strictRouter } from '../http/router.ts';
import type { SandboxState } from '../state.ts';

const AdvanceSchema = z.strictObject({ hours: z.number().check(z.gt(0), z.lte(24 * 365)) });
const SpeedSchema = z.strictObject({ speed: z.number().check(z.gte(0), z.lte(1_000_000)) });
const ScenarioSchema = z.strictObject({ scenario: z.enum(TRACKING_SCENARIOS) });
const TimingMs = z.optional(z.int().check(z.gte(0), z.lte(600_000)));
const LabelTimingSchema = z.strictObject({ pdfDelayMs: TimingMs, pdfWaitMs: TimingMs });

/**
 * `/_sandbox/*` (sandbox/README.md, "Control API"): reset, faults, simulated time, tracking scenarios, call counts,
 * pre-postings, label timing.
 */
export function controlRoutes(state: SandboxState): Router {
  const router = strictRouter();
  router.use('/_sandbox', loopbackOnly);

  router.post('/_sandbox/reset', async (_req, res) => {
    await state.reset();
    res.json({ ok: true });
  });
  router.post('/_sandbox/faults', async (req, res) => {
    const fault = parseInput(FaultSchema, await readJsonBody(req));
    state.faults.add(fault);
    res.status(201).json({ ok: true, fault });
  });
  router.delete('/_sandbox/faults', (_req, res) => {
    state.faults.clear();
    res.json({ ok: true });
  });
  router.post('/_sandbox/advance', async (req, res) => {
    const { hours } = parseInput(AdvanceSchema, await readJsonBody(req));
    state.carrierClock.advance(hours);
    res.json({ ok: true, carrierTime: new Date(state.carrierClock.time()).toISOString() });
  });
  // The carrier's clock, for a BFF started with BFF_TEST_CLOCK=sandbox: `now` (epoch ms) and how fast it runs.
  router.get('/_sandbox/clock', (_req, res) => {
    res.json({ now: state.carrierClock.time(), speed: state.carrierClock.rate });
  });
  router.post('/_sandbox/clock', async (req, res) => {
    const { speed } = parseInput(SpeedSchema, await readJsonBody(req));
    state.carrierClock.setSpeed(speed);
    res.json({ now: state.carrierClock.time(), speed });
  });
  router.get('/_sandbox/stats', (_req, res) => {
    res.json({ ...state.stats.snapshot(), faultsFired: state.faults.fired });
  });
  router.post('/_sandbox/tracking/:code', async (req, res) => {
    const { scenario } = parseInput(ScenarioSchema, await readJsonBody(req));
    const code = String(req.params.code).toUpperCase();
    const refused = state.tracking.setScenario(code, scenario, state.carrierClock.time());
    if (refused === 'unknown_object') throw new ApiError('not_found', `The carrier knows no object ${code}.`);
    if (refused === 'already_delivered')
      throw new ApiError('invalid_body', `${code} was already delivered; its history cannot change.`);
    res.json({ ok: true, code, scenario });
  });
  router.get('/_sandbox/prepostings', (_req, res) => {
    res.json({ prepostings: state.labels.list() });
  });
  router.post('/_sandbox/labels', async (req, res) => {
    const timing = parseInput(LabelTimingSchema, await readJsonBody(req));
    if (timing.pdfDelayMs !== undefined) state.labels.pdfDelayMs = timing.pdfDelayMs;
    if (timing.pdfWaitMs !== undefined) state.labels.pdfWaitMs = timing.pdfWaitMs;
    res.json({ pdfDelayMs: state.labels.pdfDelayMs, pdfWaitMs: state.labels.pdfWaitMs });
  });
  return router;
}
