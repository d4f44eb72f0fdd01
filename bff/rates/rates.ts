/**
 * The entry point of `bff/rates/` (the quote core and its verification route): what `bff/app.ts` takes from
 * the folder.
 */
export { ratesVerifyRoutes } from './routes.ts';
export { RatesService } from './service.ts';
