/**
 * The entry point of `bff/desk/` (the label desk: its pages and its JSON API): what `bff/app.ts` takes from
 * the folder.
 */
export { deskApiRoutes } from './api.ts';
export { deskPageRoutes } from './pages.ts';
