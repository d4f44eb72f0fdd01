/** One mutation module: the files Stryker mutates and the test files that exercise them. */
export interface MutationModule {
  name: string;
  mutate: string[];
  tests: string[];
  /**
   * vitest's timeout per test for this module, when shorter than the 4 s of vitest.config.ts: a module whose tests
   * answer in milliseconds fails a mutant that leaves a request hanging (a route that never answers) this soon.
   */
  testTimeoutMs?: number;
  /**
   * Stryker's own timeout for this module, when shorter than run.ts's 10 s: a mutant that loops forever in synchronous
   * code blocks the event loop, so no vitest timer can fail it, and each such mutant waits this long.
   */
  hangTimeoutMs?: number;
}

/**
 * A folder's files but its tests and test helpers (`testing.ts`; a folder's `testing/` and `fixtures/`, such as the
 * suites several stores run, sit below the glob): mutating a helper tells nothing of the product.
 */
const notTests = (glob: string): string[] => [
  glob,
  `!${glob.replace(/\.ts$/, '.test.ts')}`,
  `!${glob.replace(/\*\.ts$/, 'testing.ts')}`,
];

/** The core modules of issue 18, each with the tests beside it (and the suites that drive it end to end). */
export const MODULES: MutationModule[] = [
  {
    // shared/labels/ is part of this module, as when its files sat at shared/'s root: the tests of each reach the
    // files of the other (tools.test.ts and agent-texts.test.ts parse label schemas, which read platform-limits.ts)
    name: 'shared',
    mutate: [...notTests('shared/*.ts'), ...notTests('shared/labels/*.ts')],
    tests: ['shared/*.test.ts', 'shared/labels/*.test.ts'],
  },
  {
    name: 'shared/security',
    mutate: notTests('shared/security/*.ts'),
    tests: ['shared/security/*.test.ts'],
  },
  {
    name: 'bff/tracking',
    mutate: notTests('bff/tracking/*.ts'),
    tests: ['bff/tracking/*.test.ts'],
  },
  { name: 'bff/upstream', mutate: notTests('bff/upstream/*.ts'), tests: ['bff/upstream/*.test.ts'] },
  {
    name: 'bff/labels',
    mutate: notTests('bff/labels/*.ts'),
    // crash.test.ts kills a BFF child process: a mutant is switched on only inside the test worker, so a child
    // never runs it, and the 5 s of the test would be spent on every mutant for nothing. faults.test.ts drives the
    // same behaviours through a BFF and a sandbox (seconds a test); issuer.test.ts states each of them in
    // milliseconds against a scripted platform, so faults.test.ts runs in `npm test` only.
    tests: [
      'bff/labels/fingerprint.test.ts',
      'bff/labels/issuer.test.ts',
      'bff/labels/service.scripted.test.ts',
      'bff/labels/decisions.test.ts',
      'bff/labels/order-diagnosis.test.ts',
      'bff/labels/service-codes.test.ts',
      'bff/labels/answer.test.ts',
      'bff/labels/ledger-store.test.ts',
      'bff/labels/ledger-store.postgres.test.ts',
    ],
  },
  {
    name: 'bff/mcp',
    mutate: notTests('bff/mcp/*.ts'),
    // inspector.test.ts and conformance.test.ts drive the in-process BFF from a CLI child process (the mutant is
    // active, the client is not ours): seconds of process start per mutant for what mcp.test.ts and
    // rebinding.test.ts state through the SDK's client
    tests: [
      'bff/mcp/agent-auth.test.ts',
      'bff/mcp/tool-result.test.ts',
      'bff/mcp/json-exchange.test.ts',
      'bff/mcp/rebinding.test.ts',
      'bff/mcp/answers.test.ts',
      'bff/mcp/catalog.test.ts',
      'bff/mcp/track-shipment.test.ts',
      'bff/mcp/mcp.test.ts',
      'bff/mcp/orders-tools.test.ts',
      // a browser's GET /mcp gets the page saying what the endpoint is (mcp.ts), stated beside the page itself
      'shared/about-page.test.ts',
    ],
  },
  {
    name: 'sandbox/labels',
    mutate: notTests('sandbox/labels/*.ts'),
    // desk.test.ts drives the label desk in process (no server), pdf.test.ts the label's layout, rules.test.ts the
    // carrier's rules as tables; fidelity.test.ts and sandbox/mcp/server.test.ts state the same through MCP on a
    // started sandbox (a second a mutant), so they run in `npm test` only.
    tests: ['sandbox/labels/desk.test.ts', 'sandbox/labels/pdf.test.ts', 'sandbox/labels/rules.test.ts'],
  },
  {
    name: 'sandbox/carrier',
    mutate: notTests('sandbox/carrier/*.ts'),
    tests: ['sandbox/carrier/*.test.ts', 'sandbox/rest/rates.test.ts', 'sandbox/rest/tracking.test.ts'],
  },
  {
    name: 'widget/calculator',
    // the model, the platform client and their words/validators; the Preact views (Calculator.tsx, app.tsx,
    // element.ts, loader.ts), styles.ts and the entries are left out: they are DOM and CSS, stated by the e2e suites,
    // not by unit tests
    mutate: [
      'widget/calculator/model.ts',
      'widget/calculator/quote-client.ts',
      'widget/calculator/validation.ts',
      'widget/calculator/messages.ts',
    ],
    tests: [
      'widget/calculator/model.test.ts',
      'widget/calculator/quote-client.test.ts',
      'widget/calculator/validation.test.ts',
      'widget/calculator/messages.test.ts',
    ],
  },
  {
    name: 'shared/packing',
    mutate: [...notTests('shared/packing/*.ts'), '!shared/packing/testing.ts'],
    // planner.properties.test.ts (random orders and boxes, seconds of CPU) runs in `npm test` only: every planner
    // mutant would pay its seconds, and planner.test.ts's examples state each rule on its own
    tests: [
      'shared/packing/box.test.ts',
      'shared/packing/plan.test.ts',
      'shared/packing/placement.test.ts',
      'shared/packing/planner.test.ts',
    ],
    // its tests take milliseconds, and a few of its mutants loop forever (the packer's loops are synchronous)
    hangTimeoutMs: 4_000,
  },
  {
    name: 'bff/policies',
    mutate: notTests('bff/policies/*.ts'),
    tests: ['bff/policies/policies.test.ts', 'bff/policies/approval-store.test.ts'],
  },
  {
    name: 'bff/notifications',
    // the rules (what a look at a label comes to, where a parcel is declared stalled), the e-mail's words and layout, and the signed webhook; the watcher,
    // the outbox and the dispatcher run on timers and storage, stated by notifications.test.ts in `npm test`
    mutate: [
      'bff/notifications/changes.ts',
      'bff/notifications/stall.ts',
      'bff/notifications/email-texts.ts',
      'bff/notifications/email.ts',
      'bff/notifications/webhook.ts',
    ],
    tests: [
      'bff/notifications/changes.test.ts',
      'bff/notifications/stall.test.ts',
      'bff/notifications/email-texts.test.ts',
      'bff/notifications/email.test.ts',
      'bff/notifications/webhook.test.ts',
    ],
  },
  {
    name: 'bff/orders',
    // the shopper's lookup, its links and throttle, a label's binding to its order, and what of an order a label is
    // made of; the order desk is bff/orders-desk
    mutate: [
      'bff/orders/lookup.ts',
      'bff/orders/lookup-throttle.ts',
      'bff/orders/links.ts',
      'bff/orders/link-secret.ts',
      'bff/orders/routes.ts',
      'bff/orders/binding.ts',
      'bff/orders/order-bounds.ts',
      'bff/orders/order-changes.ts',
      'bff/orders/to-ship.ts',
    ],
    // routes.test.ts drives the route in process over a node:sqlite ledger; orders.test.ts, lookup-race.test.ts,
    // binding.test.ts and binding-oracle.test.ts state the same through a started BFF and sandbox (seconds a mutant),
    // so they run in `npm test` only
    tests: [
      'bff/orders/links.test.ts',
      'bff/orders/link-secret.test.ts',
      'bff/orders/lookup.test.ts',
      'bff/orders/lookup-throttle.test.ts',
      'bff/orders/routes.test.ts',
      'bff/orders/binding-rule.test.ts',
      'bff/orders/order-bounds.test.ts',
      'bff/orders/order-changes.test.ts',
      'bff/orders/to-ship.test.ts',
      // the order's view on the desk (to-ship.ts's orderView), stated in process
      'bff/orders/order-desk.scripted.test.ts',
    ],
  },
  {
    name: 'bff/orders-desk',
    // the order desk: its list, batch and day (order-desk.ts), its routes, the CSV import, the review, the print, the
    // store and the CEP directory
    mutate: [
      'bff/orders/order-desk.ts',
      'bff/orders/desk-routes.ts',
      'bff/orders/csv-import.ts',
      'bff/orders/review.ts',
      'bff/orders/print.ts',
      'bff/orders/order-store.ts',
      'bff/orders/order-migrations.ts',
      'bff/orders/cep-directory.ts',
    ],
    // in process: the real node:sqlite order store, a scripted CEP lookup, label service and store; order-desk.test.ts,
    // csv-import.test.ts, cep-directory.test.ts and cep-pacing.test.ts state the same through a started BFF and
    // sandbox (seconds a mutant) and run in `npm test` only, as does order-store.postgres.test.ts
    tests: [
      'bff/orders/order-store.test.ts',
      'bff/orders/order-store.states.test.ts',
      'bff/orders/order-desk.scripted.test.ts',
      'bff/orders/desk-routes.test.ts',
      'bff/orders/csv-import.scripted.test.ts',
      'bff/orders/review.test.ts',
      'bff/orders/print.test.ts',
      'bff/orders/print.jobs.test.ts',
      'bff/orders/cep-directory.scripted.test.ts',
    ],
    // its tests answer in milliseconds (the 5,000-line file in a quarter of a second on a loaded machine); a route
    // handler emptied by a mutant never answers
    testTimeoutMs: 2_000,
  },
  {
    name: 'bff/stores',
    // a platform's order as the desk's (drafts: what is left to ship, cancelled, pickup; the platforms' own example
    // orders) and the tracking outbox's states; the webhooks and the senders are stated end to end through the
    // sandbox (stores/lifecycle.test.ts, shopify/fulfillment.test.ts), seconds a mutant, in `npm test` only
    mutate: [
      'bff/stores/order-drafts.ts',
      // the store's tokens: sealed at rest (store-key.ts), asked of and revoked at each platform (token-grants.ts,
      // against a scripted platform answering its own documented examples), and the stores page's body
      'bff/stores/store-key.ts',
      'bff/stores/token-grants.ts',
      'bff/stores/stores-page.ts',
      // when each store was connected, what the orders taken before migration 503 are filed by (on node:sqlite here;
      // order-store-backfill.postgres.test.ts states the same on PostgreSQL in `npm test` only)
      'bff/stores/connection-windows.ts',
    ],
    tests: [
      'bff/stores/order-drafts.test.ts',
      'bff/stores/order-drafts-fields.test.ts',
      'bff/stores/store-key.test.ts',
      'bff/stores/token-grants.test.ts',
      'bff/stores/stores-page.test.ts',
      'bff/privacy/order-store-backfill.test.ts',
    ],
  },
  {
    name: 'bff/rules',
    // the merchant's shipping rules: the desk's form and page (/admin/rules), the API (PUT /admin/api/shipping-rules,
    // GET /api/shipping-rules) and the store with its change log; the rules' meaning (shared/shipping-rules.ts) is in
    // `shared`, the page's words (messages/) are tables
    mutate: [
      'bff/rules/form.ts',
      'bff/rules/page.ts',
      'bff/rules/routes.ts',
      'bff/rules/rules-store.ts',
      'bff/rules/messages.ts',
    ],
    // the routes and the page are driven in process (a BFF and a sandbox in the test's process); the store's contract
    // on PostgreSQL (rules-store.postgres.test.ts, the same contract over the same SQL as node:sqlite) and the price
    // parity of the calculator and the BFF over random carts (parity.test.ts, seconds of fast-check) run in `npm test`
    // only
    tests: [
      'bff/rules/form.test.ts',
      'bff/rules/page-body.test.ts',
      'bff/rules/rules-store.test.ts',
      'bff/rules/routes.test.ts',
      'bff/rules/page.test.ts',
    ],
  },
  {
    name: 'shared/oauth',
    // the provider and what it wires (the clients, the codes and tokens, the scope and resource checks, the bearer
    // check), the store and its bounds, client ID metadata documents and the login guard; the pages (HTML), the
    // server's wiring and the style are stated end to end
    mutate: [
      'shared/oauth/provider.ts',
      'shared/oauth/clients.ts',
      'shared/oauth/tokens.ts',
      'shared/oauth/scopes.ts',
      'shared/oauth/bearer.ts',
      'shared/oauth/store.ts',
      'shared/oauth/migrations.ts',
      'shared/oauth/client-metadata.ts',
      'shared/oauth/login-guard.ts',
    ],
    // store.postgres.test.ts runs in `npm test` only: a node:sqlite mutant would wait for PostgreSQL to start
    tests: [
      'shared/oauth/clients.test.ts',
      'shared/oauth/tokens.test.ts',
      'shared/oauth/bearer.test.ts',
      'shared/oauth/store.test.ts',
      'shared/oauth/client-metadata.test.ts',
      'shared/oauth/login-guard.test.ts',
      'shared/oauth/server.test.ts',
    ],
    // every test answers within 150 ms; a mutant that never answers an HTTP request fails in 1.5 s, not 4
    testTimeoutMs: 1_500,
  },
  {
    name: 'bff/desk',
    // the desk's JSON API and its helpers (the list's page, the rows, the history beside an unknown attempt), the
    // admin gate in front of it and the desk's language; the pages are HTML over the same helpers, stated by
    // pages.test.ts and the e2e suite
    mutate: ['bff/desk/api.ts', 'bff/admin/gate.ts', 'bff/desk/language.ts'],
    // api-routes.test.ts drives the API in process over a real ledger, approvals and sessions, the label service and
    // the platform scripted (gate.test.ts and language.test.ts the gate and the language alone, in process too);
    // api.test.ts states the same through a started BFF and sandbox (a second a mutant), so it runs in `npm test` only
    tests: ['bff/desk/api-routes.test.ts', 'bff/admin/gate.test.ts', 'bff/desk/language.test.ts'],
    // its requests answer in milliseconds; a handler emptied by a mutant never answers (a third of its mutants)
    testTimeoutMs: 1_000,
  },
];
