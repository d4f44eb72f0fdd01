/**
 * The entry point of `bff/promise/` (the delivery promise learnt from history: the promises, the transit
 * recorder and their routes): what `bff/app.ts` takes from the folder.
 */
export { createHistoryPromises, type HistoryPromises } from './promises.ts';
export { TransitRecorder } from './recorder.ts';
export { promiseRoutes, withPromises } from './routes.ts';
