/**
 * The entry point of `bff/http/` (HTTP plumbing: errors to responses, health and readiness): what
 * `bff/app.ts` takes from the folder.
 */
export { errorHandler, notFound } from './errors.ts';
export { healthRoutes, type ReadinessCheck, upstreamCheck } from './health.ts';
