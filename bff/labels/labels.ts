/**
 * The entry point of `bff/labels/` (every label: the service agents and the desk call, the issuer under it,
 * the ledger, the operator's decisions): what `bff/app.ts` takes from the folder.
 */
export { OperatorDecisions } from './decisions.ts';
export { LabelIssuer, type LabelIssuerOptions } from './issuer.ts';
export type { LedgerStore } from './ledger-store.ts';
export { LabelService } from './service.ts';
export { ServiceCodes } from './service-codes.ts';
