/** What an emulated checkout showed the shopper (checkout.ts builds it; state.ts keeps it for the demo). */

/** One option as the shopper sees it at the checkout. */
export interface CheckoutOption {
  name: string;
  code: string;
  amountCents: number;
  price: string;
  minDeliveryDate?: string | undefined;
  maxDeliveryDate?: string | undefined;
  /** Shopify shows the rate's `description` under its name (the BFF writes the promise there). */
  description?: string | undefined;
}

/** What the checkout showed, and where it came from. */
export interface CheckoutView {
  platform: 'shopify' | 'nuvemshop';
  storeId: string;
  /** `callback`: the carrier answered now; `cache`: the platform's cache; `backup`: Shopify's backup rates; `failed`: none. */
  source: 'callback' | 'cache' | 'backup' | 'failed';
  callback?: { status: number | 'timeout' | 'unreachable'; ms: number; readTimeoutMs: number } | undefined;
  options: CheckoutOption[];
}
