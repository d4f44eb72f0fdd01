/**
 * The store platforms' accounts the sandbox knows (sandbox/README.md, "Store platforms' checkouts"): Shopify shops and
 * Nuvemshop stores with their Admin API tokens, as a merchant's fixtures. Tokens here are test values, like the
 * platform's `mk_test_…` keys.
 */

/** The client secret of the sandbox's Shopify app: it signs every callback (set `BFF_SHOPIFY_SECRET` to it). */
export const SANDBOX_SHOPIFY_APP_SECRET = 'shpss_sandbox_frete_kit_app_0001';

/** The client ID of the sandbox's Shopify app (set `BFF_SHOPIFY_CLIENT_ID` to it): installs and token grants. */
export const SANDBOX_SHOPIFY_CLIENT_ID = 'sandbox-frete-kit-client-0001';

/** The id of the sandbox's Nuvemshop app (set `BFF_NUVEMSHOP_APP_ID` to it): `/apps/<id>/authorize`. */
export const SANDBOX_NUVEMSHOP_APP_ID = '9001';

/** The client secret of the sandbox's Nuvemshop app: it signs every webhook (set `BFF_NUVEMSHOP_APP_SECRET` to it). */
export const SANDBOX_NUVEMSHOP_APP_SECRET = 'nuvem_sandbox_frete_kit_app_secret_01';

export interface ShopifyShop {
  domain: string;
  /** `advanced` (and up) has carrier-calculated shipping; `basic` does not, and carrierServiceCreate fails. */
  plan: 'basic' | 'advanced';
  /** Admin API access tokens and the scopes each was granted. */
  tokens: Record<string, readonly string[]>;
  /** What the shopper is shown when the carrier's callback fails or times out (the merchant's backup rates). */
  backupRates: readonly { name: string; code: string; amountCents: number }[];
  /** The shop's address, sent as the rate request's origin. */
  originPostalCode: string;
}

export const SHOPIFY_SHOPS: readonly ShopifyShop[] = [
  {
    domain: 'loja-demo.myshopify.com',
    plan: 'advanced',
    tokens: {
      shpat_test_demo_0000000001: [
        'read_shipping',
        'write_shipping',
        'read_orders',
        'read_merchant_managed_fulfillment_orders',
        'write_merchant_managed_fulfillment_orders',
        'read_locations',
      ],
      shpat_test_sem_escopo_0001: ['read_products'],
    },
    backupRates: [{ name: 'Frete fixo', code: 'backup-fixo', amountCents: 3500 }],
    originPostalCode: '01310-100',
  },
  {
    domain: 'loja-basica.myshopify.com',
    plan: 'basic',
    tokens: { shpat_test_basica_00000001: ['read_shipping', 'write_shipping'] },
    backupRates: [{ name: 'Frete fixo', code: 'backup-fixo', amountCents: 3500 }],
    originPostalCode: '01310-100',
  },
];

export interface NuvemshopStore {
  id: string;
  tokens: Record<string, readonly string[]>;
  originPostalCode: string;
}

export const NUVEMSHOP_STORES: readonly NuvemshopStore[] = [
  {
    id: '1001',
    tokens: {
      nuvem_test_demo_000000001: ['write_shipping', 'read_orders', 'write_orders', 'read_customers'],
      nuvem_test_sem_escopo_001: ['read_products'],
    },
    originPostalCode: '01310100',
  },
];
