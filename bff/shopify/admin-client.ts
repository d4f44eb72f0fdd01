import * as z from 'zod/mini';
import { SHOPIFY_ADMIN_API_VERSION } from '../../shared/checkouts/shopify.ts';
import { StoreRefused, storeCall } from '../stores/store-api.ts';

const GraphqlAnswerSchema = z.looseObject({
  data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  errors: z.optional(
    z.union([
      z.string(),
      z.array(
        z.looseObject({
          message: z.string(),
          extensions: z.optional(z.looseObject({ code: z.optional(z.string()) })),
        }),
      ),
    ]),
  ),
});

const UserErrorsSchema = z.array(z.looseObject({ message: z.string() }));

export interface ShopifyAdminOptions {
  /** `BFF_SHOPIFY_API_URL` (default `https://<shop>`). */
  apiUrl: string;
  token: string;
  fetch?: typeof fetch | undefined;
}

/**
 * Shopify's Admin GraphQL API (`/admin/api/<version>/graphql.json`, `X-Shopify-Access-Token`), the one client the
 * kit has of it: the carrier's registration (bff/checkout/registration.ts) and the fulfillments with tracking
 * (bff/stores/fulfillments.ts) both go through it. Every refusal is a `StoreRefused` in the merchant's words.
 */
export class ShopifyAdmin {
  readonly endpoint: string;
  private readonly options: ShopifyAdminOptions;

  constructor(options: ShopifyAdminOptions) {
    this.options = options;
    this.endpoint = `${options.apiUrl}/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`;
  }

  /** One field of a query or mutation (`field`), or `StoreRefused` with what Shopify said. */
  async graphql(
    query: string,
    variables: Record<string, unknown>,
    field: string,
    scope: string,
  ): Promise<unknown> {
    const res = await storeCall(this.options.fetch, 'Shopify', this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': this.options.token },
      body: JSON.stringify({ query, variables }),
    });
    if (res.status === 401 || res.status === 403)
      throw new StoreRefused(
        `Shopify refused the token (${res.status}): check BFF_SHOPIFY_TOKEN and BFF_SHOPIFY_SHOP, or connect the store again on /admin/stores.`,
      );
    if (res.status === 404)
      throw new StoreRefused(`Shopify has no shop at ${new URL(this.endpoint).origin}.`);
    const answer = GraphqlAnswerSchema.safeParse(await res.json().catch(() => undefined));
    if (!res.ok || !answer.success)
      throw new StoreRefused(
        `Shopify answered ${res.status} to ${field}.`,
        res.status === 429 || res.status >= 500,
      );
    const errors = answer.data.errors;
    if (Array.isArray(errors) && errors.length > 0) {
      if (errors.some((e) => e.extensions?.code === 'ACCESS_DENIED'))
        throw new StoreRefused(
          `Shopify refused ${field}: the token lacks the ${scope} scope (${errors[0]?.message}). Give the app ${scope} and install it again.`,
        );
      if (errors.some((e) => e.extensions?.code === 'THROTTLED'))
        throw new StoreRefused(`Shopify throttled ${field}; it is tried again later.`, true);
      throw new StoreRefused(`Shopify refused ${field}: ${errors.map((e) => e.message).join('; ')}`);
    }
    return answer.data.data?.[field];
  }

  /** A mutation's payload after its `userErrors` (a refusal: said as Shopify says it, `hint` after it). */
  async mutate(
    mutation: string,
    variables: Record<string, unknown>,
    field: string,
    scope: string,
    hint = '',
  ): Promise<Record<string, unknown>> {
    const payload = await this.graphql(mutation, variables, field, scope);
    const record = z.looseObject({ userErrors: UserErrorsSchema }).safeParse(payload);
    if (!record.success)
      throw new StoreRefused(`Shopify answered ${field} in a shape the kit does not know.`);
    const refusals = record.data.userErrors.map((e) => e.message);
    if (refusals.length > 0)
      throw new StoreRefused(`Shopify refused ${field}: ${refusals.join('; ')}${hint ? ` ${hint}` : ''}`);
    return record.data;
  }
}
