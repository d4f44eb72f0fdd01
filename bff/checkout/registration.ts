import * as z from 'zod/mini';
import {
  NUVEMSHOP_ORDER_EVENTS,
  type NuvemshopCarrier,
  NuvemshopCarrierOptionSchema,
  NuvemshopCarrierSchema,
} from '../../shared/checkouts/nuvemshop.ts';
import { SHOPIFY_SUBSCRIBED_TOPICS } from '../../shared/checkouts/shopify.ts';
import { isLoopbackUrl } from '../../shared/security/loopback.ts';
import type { BffConfig } from '../config.ts';
import { NuvemshopApi } from '../nuvemshop/api-client.ts';
import { ShopifyAdmin } from '../shopify/admin-client.ts';
import { StoreRefused } from '../stores/store-api.ts';

/**
 * `npm run checkout -- register|status|unregister shopify|nuvemshop` (docs/checkout/): the BFF's callback registered
 * with the store platform's Admin API, its state read back, or removed. Each step says plainly what the platform
 * refused (a plan without carrier-calculated shipping, a missing scope, a callback that is not https).
 */
export type CheckoutPlatform = 'shopify' | 'nuvemshop';
export type CheckoutCommand = 'register' | 'status' | 'unregister';

/** A service the store quotes: what a Nuvemshop option is created for (code = serviceId, name = label). */
export interface QuotedService {
  serviceId: string;
  label: string;
}

export interface RegistrationDeps {
  config: Pick<BffConfig, 'publicUrl' | 'checkout' | 'serviceCodes' | 'store'>;
  /** The services the store's quotes carry (a sample quote, in scripts/checkout.ts). */
  services?: () => Promise<QuotedService[]>;
  fetch?: typeof fetch;
}

/** What the command did, line by line, and whether it did what was asked. */
export interface CommandResult {
  ok: boolean;
  lines: string[];
}

/** A refusal of the platform (or of a precondition), in words the merchant can act on. */
const RegistrationRefused = StoreRefused;

export async function runCheckoutCommand(
  command: CheckoutCommand,
  platform: CheckoutPlatform,
  deps: RegistrationDeps,
): Promise<CommandResult> {
  try {
    const admin = platform === 'shopify' ? new ShopifyRegistration(deps) : new NuvemshopRegistration(deps);
    return { ok: true, lines: await admin[command]() };
  } catch (error) {
    if (error instanceof StoreRefused) return { ok: false, lines: [error.message] };
    throw error;
  }
}

/** The order webhooks' lines; a refusal there is said, and does not undo the carrier's registration. */
async function orderWebhooks(platform: string, subscribe: () => Promise<string[]>): Promise<string[]> {
  try {
    return await subscribe();
  } catch (error) {
    if (!(error instanceof StoreRefused)) throw error;
    return [
      `${platform}: the order webhooks were not subscribed (orders will not arrive by themselves): ${error.message}`,
    ];
  }
}

/** The public address the platform will call: https, or http on a loopback host when the platform is the sandbox. */
function callbackBase(deps: RegistrationDeps, apiUrl: string, label: string): string {
  const base = deps.config.publicUrl;
  const local = isLoopbackUrl(apiUrl);
  if (!base.startsWith('https://') && !(local && isLoopbackUrl(base)))
    throw new RegistrationRefused(
      `${label} calls the BFF from the internet: BFF_PUBLIC_URL must be an https URL it can reach (it is ${base}). ` +
        'Try it on the sandbox first (docs/checkout/).',
    );
  return base;
}

const CarrierServiceSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  callbackUrl: z.nullable(z.string()),
  active: z.boolean(),
});
type CarrierService = z.infer<typeof CarrierServiceSchema>;

const PLAN_HINT =
  'Carrier-calculated shipping needs the Advanced plan or higher, the Shopify plan billed yearly, or the feature added by Shopify Support (development stores have it).';

/** Shopify's Admin GraphQL API: one CarrierService whose callback is `<BFF_PUBLIC_URL>/checkout/shopify/rates`. */
class ShopifyRegistration {
  private readonly deps: RegistrationDeps;
  private readonly admin: ShopifyAdmin;

  constructor(deps: RegistrationDeps) {
    const { shop, token, apiUrl } = deps.config.checkout.shopify;
    if (!shop || !token || !apiUrl)
      throw new RegistrationRefused(
        'Set BFF_SHOPIFY_SHOP and BFF_SHOPIFY_TOKEN (the shop’s Admin API token) first.',
      );
    this.deps = deps;
    this.admin = new ShopifyAdmin({ apiUrl, token, fetch: deps.fetch });
  }

  /**
   * `<BFF_PUBLIC_URL>/checkout/shopify/rates`, or with `BFF_SHOPIFY_CALLBACK_SECRET` its secret URL (a rate request
   * Shopify does not sign is taken only there); `shown` hides the secret in what is printed and logged.
   */
  private callback(): { url: string; shown: string } {
    const base = `${callbackBase(this.deps, this.admin.endpoint, 'Shopify')}/checkout/shopify/rates`;
    const secret = this.deps.config.checkout.shopify.callbackSecret;
    return secret
      ? { url: `${base}/${secret}`, shown: `${base}/<BFF_SHOPIFY_CALLBACK_SECRET>` }
      : { url: base, shown: base };
  }

  async register(): Promise<string[]> {
    if (!this.deps.config.checkout.shopifySecret)
      throw new RegistrationRefused(
        'Set BFF_SHOPIFY_SECRET (the app’s client secret) first: without it the BFF answers Shopify 404.',
      );
    const { url: callbackUrl, shown } = this.callback();
    const ours = await this.ours(callbackUrl);
    const name = this.deps.config.store.name
      ? `${this.deps.config.store.name} (Correios)`
      : 'Correios (frete-kit)';
    if (ours) {
      if (!ours.active) await this.mutate('carrierServiceUpdate', { input: { id: ours.id, active: true } });
      return [
        `Shopify: already registered as "${ours.name}" (${ours.id}), active, calling ${shown}.`,
        ...(await this.subscribeOrders()),
      ];
    }
    const created = await this.mutate('carrierServiceCreate', {
      input: { name, callbackUrl, active: true, supportsServiceDiscovery: true },
    });
    const service = CarrierServiceSchema.safeParse(created.carrierService);
    if (!service.success)
      throw new RegistrationRefused('Shopify answered the registration without a carrier service.');
    return [
      `Shopify: registered "${service.data.name}" (${service.data.id}), active, calling ${shown}.`,
      'Shopify now asks the BFF for rates at checkout; add it to a shipping zone (Settings → Shipping and delivery) if it is not there yet.',
      ...(await this.subscribeOrders()),
    ];
  }

  /**
   * The store's paid orders (and changes to them) sent to `<BFF_PUBLIC_URL>/stores/shopify/webhooks` (docs/orders.md):
   * the `SHOPIFY_SUBSCRIBED_TOPICS` webhook subscriptions (orders paid, updated, cancelled; fulfillment orders
   * released), each once.
   */
  private subscribeOrders(): Promise<string[]> {
    return orderWebhooks('Shopify', () => this.subscribe());
  }

  private async subscribe(): Promise<string[]> {
    const uri = `${callbackBase(this.deps, this.admin.endpoint, 'Shopify')}/stores/shopify/webhooks`;
    const listed = z
      .looseObject({ nodes: z.array(z.looseObject({ topic: z.string(), uri: z.optional(z.string()) })) })
      .safeParse(
        await this.admin.graphql(
          'query FreteKitWebhooks { webhookSubscriptions(first: 100) { nodes { id topic uri } } }',
          {},
          'webhookSubscriptions',
          'read_orders',
        ),
      );
    const have = new Set((listed.data?.nodes ?? []).filter((n) => n.uri === uri).map((n) => n.topic));
    const lines: string[] = [];
    // app/uninstalled: the store's tokens deleted when the merchant removes the app (docs/checkout/connect.md).
    for (const topic of [...SHOPIFY_SUBSCRIBED_TOPICS, 'APP_UNINSTALLED']) {
      if (have.has(topic)) continue;
      await this.admin.mutate(
        `mutation FreteKitWebhook($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
          webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
            webhookSubscription { id topic uri } userErrors { field message } } }`,
        { topic, webhookSubscription: { uri, format: 'JSON' } },
        'webhookSubscriptionCreate',
        'read_orders',
      );
      lines.push(`Shopify: ${topic} webhook sent to ${uri}.`);
    }
    return lines.length > 0 ? lines : [`Shopify: order webhooks already sent to ${uri}.`];
  }

  async status(): Promise<string[]> {
    const { url: callbackUrl, shown } = this.callback();
    const services = await this.list();
    const ours = services.find((s) => s.callbackUrl === callbackUrl);
    const others = services.filter((s) => s !== ours).map((s) => `"${s.name}"`);
    return [
      ours
        ? `Shopify: registered as "${ours.name}" (${ours.id}), ${ours.active ? 'active' : 'INACTIVE'}, calling ${shown}.`
        : `Shopify: not registered (no carrier service calls ${shown}).`,
      ...(others.length > 0 ? [`Other carrier services of the shop: ${others.join(', ')}.`] : []),
    ];
  }

  async unregister(): Promise<string[]> {
    const { url: callbackUrl, shown } = this.callback();
    const ours = await this.ours(callbackUrl);
    if (!ours) return [`Shopify: nothing to remove (no carrier service calls ${shown}).`];
    await this.mutate('carrierServiceDelete', { id: ours.id });
    return [`Shopify: removed "${ours.name}" (${ours.id}); the checkout no longer asks the BFF.`];
  }

  private async ours(callbackUrl: string): Promise<CarrierService | undefined> {
    return (await this.list()).find((service) => service.callbackUrl === callbackUrl);
  }

  private async list(): Promise<CarrierService[]> {
    const data = await this.admin.graphql(
      'query FreteKitCarrierServices { carrierServices(first: 50) { nodes { id name callbackUrl active } } }',
      {},
      'carrierServices',
      'write_shipping',
    );
    const nodes = z.looseObject({ nodes: z.array(CarrierServiceSchema) }).safeParse(data);
    if (!nodes.success)
      throw new RegistrationRefused('Shopify answered carrierServices in a shape the kit does not know.');
    return nodes.data.nodes;
  }

  /** A mutation's payload, after its `userErrors` (a refusal: said as Shopify says it, with what a plan needs). */
  private mutate(field: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
    const argument =
      field === 'carrierServiceDelete'
        ? '$id: ID!'
        : `$input: DeliveryCarrierService${field === 'carrierServiceCreate' ? 'Create' : 'Update'}Input!`;
    const call = field === 'carrierServiceDelete' ? 'id: $id' : 'input: $input';
    const selection =
      field === 'carrierServiceDelete'
        ? 'deletedId userErrors { field message }'
        : 'carrierService { id name callbackUrl active } userErrors { field message }';
    return this.admin.mutate(
      `mutation FreteKit(${argument}) { ${field}(${call}) { ${selection} } }`,
      variables,
      field,
      'write_shipping',
      field === 'carrierServiceCreate' ? PLAN_HINT : '',
    );
  }
}

/** Nuvemshop's API: one shipping carrier (types `ship`) with an option per quoted service (code = serviceId). */
class NuvemshopRegistration {
  private readonly deps: RegistrationDeps;
  private readonly api: NuvemshopApi;
  private readonly base: string;
  private readonly secret: string | undefined;

  constructor(deps: RegistrationDeps) {
    const { storeId, token, apiUrl } = deps.config.checkout.nuvemshop;
    if (!storeId || !token)
      throw new RegistrationRefused(
        'Set BFF_NUVEMSHOP_STORE_ID and BFF_NUVEMSHOP_TOKEN (the store’s API token) first.',
      );
    this.deps = deps;
    this.api = new NuvemshopApi({ apiUrl, storeId, token, fetch: deps.fetch });
    this.base = `${this.api.base}/shipping_carriers`;
    this.secret = deps.config.checkout.nuvemshopCallbackSecret;
  }

  /** The callback with the secret, and the same with the secret hidden, for what is printed. */
  private callback(): { url: string; shown: string } {
    if (!this.secret)
      throw new RegistrationRefused(
        'Set BFF_NUVEMSHOP_CALLBACK_SECRET first (32+ characters: openssl rand -hex 32): it is the callback URL’s last segment.',
      );
    const base = `${callbackBase(this.deps, this.base, 'Nuvemshop')}/checkout/nuvemshop/rates/`;
    return { url: `${base}${this.secret}`, shown: `${base}<BFF_NUVEMSHOP_CALLBACK_SECRET>` };
  }

  async register(): Promise<string[]> {
    const { url, shown } = this.callback();
    const services = (await this.deps.services?.()) ?? [];
    if (services.length === 0)
      throw new RegistrationRefused(
        'The platform quoted no service to register as an option (check the store’s services).',
      );
    let carrier = (await this.carriers()).find((c) => c.callback_url === url);
    const lines: string[] = [];
    if (carrier) {
      lines.push(`Nuvemshop: carrier "${carrier.name}" (${carrier.id}) already calls ${shown}.`);
    } else {
      const name = this.deps.config.store.name
        ? `${this.deps.config.store.name} (Correios)`
        : 'Correios (frete-kit)';
      carrier = NuvemshopCarrierSchema.parse(
        await this.call('POST', '', { name, callback_url: url, types: 'ship', active: true }),
      );
      lines.push(`Nuvemshop: created carrier "${carrier.name}" (${carrier.id}), calling ${shown}.`);
    }
    const existing = new Set((await this.options(carrier)).map((o) => o.code));
    for (const service of services) {
      if (existing.has(service.serviceId)) continue;
      // allow_free_shipping: false, as Nuvemshop's guide requires (note 5 of its carrier options: "The allow_free_shipping
      // attribute must be created with the value False. The store owner will modify this configuration from the
      // admin"): https://github.com/TiendaNube/api-docs/tree/master/guides/Shipping%20Provider
      await this.call('POST', `/${carrier.id}/options`, {
        code: service.serviceId,
        name: service.label,
        allow_free_shipping: false,
      });
      lines.push(`Nuvemshop: option "${service.label}" (code ${service.serviceId}) created.`);
    }
    lines.push(
      'Turn the options on in the Nuvemshop admin (Configurações → Formas de entrega) if they are not yet.',
    );
    if (this.deps.config.checkout.nuvemshop.appSecret) lines.push(...(await this.subscribeOrders()));
    return lines;
  }

  /** The store's paid orders (and changes) sent to `<BFF_PUBLIC_URL>/stores/nuvemshop/webhooks`, each event once. */
  private subscribeOrders(): Promise<string[]> {
    return orderWebhooks('Nuvemshop', () => this.subscribe());
  }

  private async subscribe(): Promise<string[]> {
    const url = `${callbackBase(this.deps, this.base, 'Nuvemshop')}/stores/nuvemshop/webhooks`;
    const listed = z
      .array(z.looseObject({ event: z.string(), url: z.string() }))
      .safeParse(await this.api.call('GET', '/webhooks', 'read_orders'));
    const have = new Set((listed.data ?? []).filter((w) => w.url === url).map((w) => w.event));
    const lines: string[] = [];
    for (const event of [...NUVEMSHOP_ORDER_EVENTS, 'app/uninstalled']) {
      if (have.has(event)) continue;
      await this.api.call('POST', '/webhooks', 'write_orders', { event, url });
      lines.push(`Nuvemshop: ${event} webhook sent to ${url}.`);
    }
    return lines.length > 0 ? lines : [`Nuvemshop: order webhooks already sent to ${url}.`];
  }

  async status(): Promise<string[]> {
    const { url, shown } = this.callback();
    const carrier = (await this.carriers()).find((c) => c.callback_url === url);
    if (!carrier) return [`Nuvemshop: not registered (no carrier calls ${shown}).`];
    const options = await this.options(carrier);
    return [
      `Nuvemshop: carrier "${carrier.name}" (${carrier.id}), ${carrier.active ? 'active' : 'INACTIVE'}, calling ${shown}.`,
      `Options: ${options.map((o) => `${o.code} (${o.active ? 'on' : 'off'})`).join(', ') || 'none'}.`,
    ];
  }

  async unregister(): Promise<string[]> {
    const { url, shown } = this.callback();
    const carrier = (await this.carriers()).find((c) => c.callback_url === url);
    if (!carrier) return [`Nuvemshop: nothing to remove (no carrier calls ${shown}).`];
    await this.call('DELETE', `/${carrier.id}`);
    return [`Nuvemshop: removed carrier "${carrier.name}" (${carrier.id}) and its options.`];
  }

  private async carriers(): Promise<NuvemshopCarrier[]> {
    const parsed = z.array(NuvemshopCarrierSchema).safeParse(await this.call('GET', ''));
    if (!parsed.success)
      throw new RegistrationRefused('Nuvemshop answered the carriers in a shape the kit does not know.');
    return parsed.data;
  }

  private async options(carrier: NuvemshopCarrier) {
    const parsed = z
      .array(NuvemshopCarrierOptionSchema)
      .safeParse(await this.call('GET', `/${carrier.id}/options`));
    if (!parsed.success)
      throw new RegistrationRefused('Nuvemshop answered the options in a shape the kit does not know.');
    return parsed.data;
  }

  private call(method: string, path: string, body?: unknown): Promise<unknown> {
    return this.api.call(method, `/shipping_carriers${path}`, 'write_shipping', body);
  }
}
