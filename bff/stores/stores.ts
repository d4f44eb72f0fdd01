/**
 * The entry point of `bff/stores/` (the checkout platforms' stores: tracking written back and their
 * webhooks): what `bff/app.ts` takes from the folder.
 */

export { createConnections, StoreConnections } from './connections.ts';
export { installRoutes } from './install-routes.ts';
export { UnverifiedBytes } from './signed-body.ts';
export { storeDeskRoutes } from './store-desk-routes.ts';
export { storeRegistrar } from './store-registration.ts';
export { TrackingBack } from './tracking-back.ts';
export { storeWebhookRoutes } from './webhooks.ts';
