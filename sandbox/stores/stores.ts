import * as z from 'zod/mini';
import fixtures from './stores.json' with { type: 'json' };

const StoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The merchant's login on the OAuth pages (fixtures: `<id>@sandbox.example` / `sandbox`). */
  login: z.optional(z.object({ email: z.string(), password: z.string() })),
  originCep: z.string().check(z.regex(/^\d{8}$/)),
  planActive: z.boolean(),
  /** Contract product codes enabled for quotes (03298 PAC, 03220 SEDEX). */
  services: z.array(z.enum(['03298', '03220'])),
  freeShipping: z.nullable(z.object({ serviceCode: z.string(), minSubtotalBRL: z.number() })),
  carrierAuth: z.enum(['ok', 'rejected']),
  ownContract: z.boolean(),
  labelIntegration: z.boolean(),
  /** Storefront apps whose label attempts the operator linked (spec 4.4.5). */
  linkedApps: z.array(z.string()),
  deleted: z.boolean(),
  keys: z.array(z.object({ key: z.string().check(z.regex(/^(pk|mk)_/)), merchantPermission: z.boolean() })),
});
export type Store = z.infer<typeof StoreSchema>;

const FixturesSchema = z.object({
  stores: z.array(StoreSchema),
  platformKeys: z.array(z.string().check(z.regex(/^pl_/))),
  actionUrlBase: z.string(),
});

/** What a Bearer key identifies (spec 5.1). */
export type Credential =
  | { kind: 'public' | 'secret'; store: Store; merchantPermission: boolean }
  | { kind: 'platform'; partnerId: string };

/**
 * The stores and keys of `stores.json` (a new scenario is one entry there), plus the stores partners provision
 * at run time (`add`), which `removeProvisioned` forgets on reset.
 */
export class StoreRegistry {
  private readonly fixtures: readonly Store[];
  private provisioned: Store[] = [];
  private readonly byKey = new Map<string, Credential>();
  private readonly actionUrlBase: string;

  constructor(data: unknown = fixtures) {
    const parsed = FixturesSchema.parse(data);
    this.fixtures = parsed.stores;
    this.actionUrlBase = parsed.actionUrlBase;
    for (const store of parsed.stores) this.indexKeys(store);
    // The partner id is the key without its `pl_` prefix: internal only, never shown.
    for (const key of parsed.platformKeys) this.byKey.set(key, { kind: 'platform', partnerId: key.slice(3) });
  }

  /** The fixture stores, then the provisioned ones. */
  get stores(): readonly Store[] {
    return [...this.fixtures, ...this.provisioned];
  }

  credential(key: string): Credential | undefined {
    return this.byKey.get(key);
  }

  /** A store by its id (the `instanceId` of the local mode), deleted or not. */
  byId(id: string): Store | undefined {
    return this.stores.find((store) => store.id === id);
  }

  /** Adds a store a partner provisioned; its keys work at once. */
  add(data: Store): Store {
    const store = StoreSchema.parse(data);
    if (this.byId(store.id) || store.keys.some(({ key }) => this.byKey.has(key)))
      throw new Error('store id or key already in use');
    this.provisioned.push(store);
    this.indexKeys(store);
    return store;
  }

  /** Forgets every provisioned store and its keys (`POST /_sandbox/reset`). */
  removeProvisioned(): void {
    for (const store of this.provisioned) for (const { key } of store.keys) this.byKey.delete(key);
    this.provisioned = [];
  }

  private indexKeys(store: Store): void {
    for (const { key, merchantPermission } of store.keys) {
      this.byKey.set(key, { kind: key.startsWith('pk_') ? 'public' : 'secret', store, merchantPermission });
    }
  }

  /** Where the merchant finishes a setup step; shown only to merchants, never to shoppers. */
  actionUrl(store: Store, page: 'billing' | 'services' | 'carrier-contract' | 'labels'): string {
    return `${this.actionUrlBase}/${store.id}/${page}`;
  }
}
