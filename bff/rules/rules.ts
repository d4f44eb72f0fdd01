/**
 * The entry point of `bff/rules/` (the merchant's shipping rules: their store and routes): what `bff/parts.ts` and
 * `bff/app.ts` take from the folder. The rules themselves and their one evaluator are in `shared/` (shipping-rules.ts,
 * charged-rates.ts): the calculator runs the same.
 */

export { shippingRulesPageRoutes } from './page.ts';
export { shippingRulesAdminRoutes, shippingRulesRoutes } from './routes.ts';
export { ShippingRulesStore } from './rules-store.ts';
