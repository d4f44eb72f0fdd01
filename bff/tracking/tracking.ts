/**
 * The entry point of `bff/tracking/` (tracking: the service (codes, coalescing, cache) and its routes): what
 * `bff/app.ts` takes from the folder.
 */
export type { Schedule } from './coalescer.ts';
export { trackingRoutes } from './routes.ts';
export { TrackingService } from './service.ts';
