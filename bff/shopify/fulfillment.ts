import * as z from 'zod/mini';
import { ShopifyAdmin } from './admin-client.ts';

/**
 * Tracking back to a Shopify order, per fulfillment order (docs/orders.md, "Tracking back to the store"). Shopify
 * splits an order into fulfillment orders, one per location that holds its items; `fulfillmentCreate` takes the
 * fulfillment orders of one location in a call, and only those Shopify lets be fulfilled
 * (shopify.dev/docs/api/admin-graphql/latest/input-objects/FulfillmentInput and the
 * `FulfillmentOrderStatus` enum: `OPEN` ready, `IN_PROGRESS` being processed, `ON_HOLD` "can't be initiated until the
 * hold … is released", `SCHEDULED` "ready for fulfillment after … fulfill_at"). So the kit fulfils, of the location
 * that ships (`BFF_SHOPIFY_LOCATION_ID`, else the shop's only location), those `OPEN` or `IN_PROGRESS`, and waits for
 * those `ON_HOLD` or `SCHEDULED` (released: the fulfillment-order webhooks wake it, a bounded poll otherwise). The
 * other locations' fulfillment orders are not the kit's parcels.
 */

export interface ShopifyTracking {
  codes: string[];
  urls: string[];
  notifyCustomer: boolean;
}

/** What one try came to: done (sent, or nothing of ours left to fulfil), or waiting on a hold or a schedule. */
export type ShopifyOutcome = { kind: 'done'; fulfilled: number } | { kind: 'waiting'; why: string };

/** Thrown for a refusal that trying again cannot fix (the merchant must act). */
export class ShopifyFulfillmentRefused extends Error {
  override readonly name = 'ShopifyFulfillmentRefused';
}

const FULFILLABLE = new Set(['OPEN', 'IN_PROGRESS']);
const WAITING = new Set(['ON_HOLD', 'SCHEDULED']);

const FulfillmentOrdersSchema = z.looseObject({
  id: z.string(),
  fulfillmentOrders: z.looseObject({
    nodes: z.array(
      z.looseObject({
        id: z.string(),
        status: z.string(),
        fulfillAt: z.optional(z.nullable(z.string())),
        assignedLocation: z.optional(
          z.nullable(z.looseObject({ location: z.optional(z.nullable(z.looseObject({ id: z.string() }))) })),
        ),
      }),
    ),
  }),
});

const LocationsSchema = z.looseObject({ nodes: z.array(z.looseObject({ id: z.string() })) });

/** A location id as configured (`123` or `gid://shopify/Location/123`), as Shopify's GraphQL names it. */
export function locationGid(id: string): string {
  return /^\d+$/.test(id.trim()) ? `gid://shopify/Location/${id.trim()}` : id.trim();
}

export class ShopifyFulfillment {
  private readonly admin: ShopifyAdmin;
  private readonly locationId: string | undefined;

  constructor(options: {
    apiUrl: string;
    token: string;
    locationId?: string | undefined;
    fetch?: typeof fetch | undefined;
  }) {
    this.admin = new ShopifyAdmin({ apiUrl: options.apiUrl, token: options.token, fetch: options.fetch });
    this.locationId = options.locationId ? locationGid(options.locationId) : undefined;
  }

  /** The location that ships: the configured one, else the shop's only one (several: the merchant must say which). */
  async location(): Promise<string> {
    if (this.locationId) return this.locationId;
    const read = LocationsSchema.safeParse(
      await this.admin.graphql(
        'query FreteKitLocations { locations(first: 2) { nodes { id } } }',
        {},
        'locations',
        'read_locations',
      ),
    );
    const nodes = read.success ? read.data.nodes : [];
    const only = nodes.length === 1 ? nodes[0] : undefined;
    if (!only)
      throw new ShopifyFulfillmentRefused(
        nodes.length === 0
          ? 'Shopify answered no location for the shop.'
          : 'The shop has several locations: set BFF_SHOPIFY_LOCATION_ID to the one the parcels ship from.',
      );
    return only.id;
  }

  /** Fulfils the order's fulfillment orders of the shipping location that Shopify lets be fulfilled now. */
  async send(orderGid: string, tracking: ShopifyTracking): Promise<ShopifyOutcome> {
    const location = await this.location();
    const read = FulfillmentOrdersSchema.safeParse(
      await this.admin.graphql(
        `query FreteKitOrder($id: ID!) { order(id: $id) { id fulfillmentOrders(first: 50) { nodes {
          id status fulfillAt assignedLocation { location { id } } } } } }`,
        { id: orderGid },
        'order',
        'read_merchant_managed_fulfillment_orders',
      ),
    );
    if (!read.success)
      throw new ShopifyFulfillmentRefused(
        'Shopify has no such order (or answered it in a shape the kit does not know).',
      );
    const ours = read.data.fulfillmentOrders.nodes.filter(
      (node) => node.assignedLocation?.location?.id === location,
    );
    if (ours.length === 0)
      throw new ShopifyFulfillmentRefused(
        `The order has no fulfillment order at the shipping location (${location}): its items are at another location; set BFF_SHOPIFY_LOCATION_ID to the one the parcels ship from.`,
      );
    const ready = ours.filter((node) => FULFILLABLE.has(node.status));
    const held = ours.filter((node) => WAITING.has(node.status));
    if (ready.length > 0)
      await this.admin.mutate(
        `mutation FreteKitFulfill($fulfillment: FulfillmentInput!) {
          fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } } }`,
        {
          fulfillment: {
            lineItemsByFulfillmentOrder: ready.map((node) => ({ fulfillmentOrderId: node.id })),
            trackingInfo: { company: 'Correios', numbers: tracking.codes, urls: tracking.urls },
            notifyCustomer: tracking.notifyCustomer,
          },
        },
        'fulfillmentCreate',
        'write_merchant_managed_fulfillment_orders',
      );
    const first = held[0];
    if (first)
      return {
        kind: 'waiting',
        why:
          first.status === 'ON_HOLD'
            ? 'on hold in Shopify: sent when the hold is released'
            : `scheduled in Shopify${first.fulfillAt ? ` for ${first.fulfillAt}` : ''}: sent when it is ready`,
      };
    // Nothing of ours left open: sent now, or an earlier try got through (its answer was lost), or the merchant did it.
    return { kind: 'done', fulfilled: ready.length };
  }
}
