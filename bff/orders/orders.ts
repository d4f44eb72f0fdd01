/**
 * The entry point of `bff/orders/` (the merchant's orders: the lookup, tracking links, the order desk and
 * their routes): what `bff/app.ts` takes from the folder.
 */
export { StoreOrderBinding } from './binding.ts';
export { CepDirectory, type CepLookup } from './cep-directory.ts';
export { orderDeskRoutes } from './desk-routes.ts';
export { TrackingLinks } from './links.ts';
export { OrderLookup } from './lookup.ts';
export { lifecycleRefusal, OrderDesk } from './order-desk.ts';
export { orderRoutes } from './routes.ts';
