/**
 * Every table the BFF keeps, on node:sqlite and PostgreSQL alike, and what it holds of a shopper (docs/privacy.md):
 * the promises the erasure (../erasure.ts) keeps. Nothing in the product reads this list; `../erasure.test.ts` lists
 * the tables of a running BFF's databases and fails on one that is not here, so a new table says whether it holds
 * personal data and how it is erased before it ships.
 *
 * What lives in memory or Redis (the tracking cache, the quote cache, limiters and throttles, the platform catalog)
 * holds no one's name, address, e-mail, phone or CPF: tracking results, quotes by CEP and cart, counters by address or
 * order number, all expiring within hours. A label attempt's `fingerprint` is a SHA-256 of its request (kept so a
 * request is sent once): not the data, and erased requests can no longer be sent again to match it.
 *
 * `holds` is what a shopper's data it keeps (name, address, e-mail, phone, CPF), or `none` and why; `customer` and
 * `store` say what `customers/redact` and `shop/redact` / `store/redact` do to it.
 */
export interface TableDuty {
  holds: string;
  customer: string;
  store: string;
}

export const PERSONAL_DATA: Readonly<Record<string, TableDuty>> = {
  store_orders: {
    holds:
      "the recipient (name, CPF, e-mail, phone, address) and the platform's address line, in `body`; the address as labelled, in `as_sent`",
    customer:
      "the recipient's fields emptied (UF kept), the address line dropped, the recipient in `as_sent` emptied likewise, the order kept for its items",
    store: "the store's orders deleted",
  },
  store_webhooks: {
    holds: 'none: a delivery id and an order number',
    customer: 'kept',
    store: "the store's orders' deliveries deleted",
  },
  store_fulfillments: {
    holds: 'none: tracking codes and links going back to the store',
    customer: 'kept',
    store: "the store's orders' rows deleted",
  },
  product_presets: { holds: "none: a product's sizes and weight", customer: 'kept', store: 'kept' },

  label_attempts: {
    holds: 'the recipient, in `request` (the label request) and `recipient` (the name the desk searches)',
    customer: "the recipient's fields emptied in the labels of the customer's orders",
    store: "the recipient's fields emptied in the labels of the store's orders",
  },
  label_approvals: {
    holds: "the recipient, in `request` (an agent's label request waiting for the merchant)",
    customer: "the recipient's fields emptied in the approvals of the customer's orders",
    store: "the recipient's fields emptied in the approvals of the store's orders",
  },
  shipment_watches: { holds: 'none: a tracking code and its status', customer: 'kept', store: 'kept' },
  shipment_events: {
    holds: 'none: order number, tracking code, status, the carrier unit of the last event',
    customer: 'kept',
    store: 'kept',
  },
  notification_deliveries: {
    holds:
      "the shopper's e-mail address (`target` of an e-mail), and an SMTP refusal may quote it (`last_error`)",
    customer: "the address emptied and the error dropped; a pending e-mail is not sent ('failed')",
    store: 'as for a customer, for every label of the store',
  },
  parcel_transits: {
    holds: "none: the destination's 3-digit CEP prefix, UF and region (a lane, not an address)",
    customer: 'kept',
    store: 'kept',
  },
  privacy_requests: {
    holds: "the customer's id, e-mail, phone and CPF as the platform named them",
    customer: "the customer's fields emptied in their requests",
    store: "the store's requests deleted",
  },
  shipping_rules: {
    holds: "none: the merchant's shipping rules and who changed them (the desk's account and address)",
    customer: 'kept',
    store: 'kept',
  },
  store_connections: {
    holds: "none: the store's sealed tokens (deleted at app/uninstalled), their renewal and registration",
    customer: 'kept',
    store: 'kept (the tokens are already gone: shop/redact comes after the uninstall)',
  },
  store_install_states: {
    holds: "none: a Shopify install's one-use state and its shop, for 10 minutes",
    customer: 'kept',
    store: 'kept',
  },
  store_pending_installs: {
    holds:
      "none: an install waiting for the merchant's approval, its store and sealed token, for 24 h at most",
    customer: 'kept',
    store: 'kept (approved, rejected or discarded after 24 h)',
  },
  bff_secrets: { holds: 'none: the signed links key', customer: 'kept', store: 'kept' },
  bff_migrations: { holds: 'none: applied migration ids', customer: 'kept', store: 'kept' },
  oauth_clients: { holds: 'none: agents registered by the merchant', customer: 'kept', store: 'kept' },
  oauth_codes: { holds: 'none: hashed codes of agents', customer: 'kept', store: 'kept' },
  oauth_tokens: { holds: 'none: hashed tokens of agents', customer: 'kept', store: 'kept' },
  oauth_sessions: { holds: "none: the merchant's desk sessions", customer: 'kept', store: 'kept' },
  window_hits: {
    holds: "none: the desk's login attempts (addresses, for ten hours at most)",
    customer: 'kept',
    store: 'kept',
  },
};
