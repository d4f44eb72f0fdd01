import * as z from 'zod/mini';
import { StoreRefused, storeCall } from '../stores/store-api.ts';

export interface NuvemshopApiOptions {
  /** `BFF_NUVEMSHOP_API_URL` (default Nuvemshop's public API). */
  apiUrl: string;
  storeId: string;
  token: string;
  fetch?: typeof fetch | undefined;
}

/**
 * Nuvemshop's API (`/<store id>/…`, `Authentication: bearer <token>`, a `User-Agent` naming the app), the one client
 * the kit has of it: the shipping carrier's registration, reading a paid order, fulfilling it with its tracking
 * number. Every refusal is a `StoreRefused` in the merchant's words; `scope` names the scope the call needs.
 */
export class NuvemshopApi {
  readonly base: string;
  private readonly options: NuvemshopApiOptions;

  constructor(options: NuvemshopApiOptions) {
    this.options = options;
    this.base = `${options.apiUrl}/${options.storeId}`;
  }

  async call(method: string, path: string, scope: string, body?: unknown): Promise<unknown> {
    const res = await storeCall(this.options.fetch, 'Nuvemshop', `${this.base}${path}`, {
      method,
      headers: {
        authentication: `bearer ${this.options.token}`,
        'user-agent': 'frete-kit (https://github.com/frete-kit)',
        ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await res.json().catch(() => undefined);
    if (res.ok) return json;
    const said = z.looseObject({ description: z.optional(z.string()) }).safeParse(json).data?.description;
    if (res.status === 401)
      throw new StoreRefused(
        'Nuvemshop refused the token (401): check BFF_NUVEMSHOP_TOKEN and BFF_NUVEMSHOP_STORE_ID, or install the app again (/admin/stores).',
      );
    if (res.status === 403)
      throw new StoreRefused(
        `Nuvemshop refused (403): the app needs the ${scope} scope${said ? ` (${said})` : ''}. Ask Nuvemshop's partners team to grant it, then install the app again.`,
      );
    if (res.status === 404)
      throw new StoreRefused(`Nuvemshop has no ${path.split('/')[1] ?? 'resource'} at ${path}.`);
    if (res.status === 422) {
      const fields = Object.entries(z.record(z.string(), z.unknown()).safeParse(json).data ?? {})
        .filter(([, value]) => Array.isArray(value))
        .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(', ') : ''}`);
      throw new StoreRefused(`Nuvemshop refused (422): ${fields.join('; ') || said || 'validation error'}.`);
    }
    throw new StoreRefused(
      `Nuvemshop answered ${res.status}${said ? `: ${said}` : ''}.`,
      res.status === 429 || res.status >= 500,
    );
  }
}
