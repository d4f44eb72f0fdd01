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
  | { kind: 'platform' };

/** The stores and keys of `stores.json`: a new scenario is one entry there. */
export class StoreRegistry {
  readonly stores: readonly Store[];
  private readonly byKey = new Map<string, Credential>();
  private readonly actionUrlBase: string;

  constructor(data: unknown = fixtures) {
    const parsed = FixturesSchema.parse(data);
    this.stores = parsed.stores;
    this.actionUrlBase = parsed.actionUrlBase;
    for (const store of parsed.stores) {
      for (const { key, merchantPermission } of store.keys) {
        this.byKey.set(key, { kind: key.startsWith('pk_') ? 'public' : 'secret', store, merchantPermission });
      }
    }
    for (const key of parsed.platformKeys) this.byKey.set(key, { kind: 'platform' });
  }

  credential(key: string): Credential | undefined {
    return this.byKey.get(key);
  }

  /** Where the merchant finishes a setup step; shown only to merchants, never to shoppers. */
  actionUrl(store: Store, page: 'billing' | 'services' | 'carrier-contract' | 'labels'): string {
    return `${this.actionUrlBase}/${store.id}/${page}`;
  }
}
