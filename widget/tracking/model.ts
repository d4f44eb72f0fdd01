import { signal } from '@preact/signals-core';
import { CEP_PATTERN, normalizeCep } from '../../shared/cep.ts';
import { MAX_CODES } from '../../shared/platform-limits.ts';
import { cleanTrackingCode, isS10 } from '../../shared/s10.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import { isTrackingLookupResponse } from '../validators/generated.js';
import { isOrderLookupResponse } from '../validators/order-lookup.ts';

/** One card: a code's result, or a code flagged as invalid (the others are looked up all the same). */
export type TrackingItem =
  | { kind: 'result'; result: TrackingLookupResult }
  | { kind: 'invalid'; code: string };

export type TrackingView =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'results'; items: TrackingItem[]; orderId?: string }
  | { kind: 'error'; error: 'unavailable' | 'limited' | 'orderNotFound' };

/** What is wrong with the order form: a field left empty, or a CEP that is not 8 digits. */
export type OrderProblem = 'empty' | 'cep' | undefined;

/** Splits what the visitor typed into codes, upper-cased. */
export function splitCodes(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map(cleanTrackingCode)
    .filter(Boolean);
}

/** The view an error answer of the BFF comes to. */
function errorView(json: unknown, status: number): TrackingView {
  // Read as given, not through the spec's envelope schema: the BFF's own codes (order_not_found) are outside its enum,
  // and that schema's validator (every error code of the spec) would cost the element's size budget for nothing.
  const code = (json as { error?: { code?: unknown } } | null | undefined)?.error?.code;
  if (code === 'rate_limited' || status === 429) return { kind: 'error', error: 'limited' };
  if (code === 'order_not_found') return { kind: 'error', error: 'orderNotFound' };
  return { kind: 'error', error: 'unavailable' };
}

/**
 * The tracking element's state: codes in, results from the BFF's `POST /api/tracking` out; or an order number and its
 * CEP in, the order's parcels from `POST /api/orders/lookup` out. A code that fails the S10 check is flagged on its
 * own card and never sent; the other codes are looked up all the same.
 */
export function createTrackingModel(options: { bffUrl: string; fetch?: typeof fetch }) {
  const text = signal('');
  const orderId = signal('');
  const cep = signal('');
  const view = signal<TrackingView>({ kind: 'idle' });
  const invalid = signal<string[] | 'empty' | undefined>(undefined);
  const orderProblem = signal<OrderProblem>(undefined);
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const base = options.bffUrl.replace(/\/+$/, '');
  let controller: AbortController | undefined;
  /** The last lookup, for "try again". */
  let last: () => Promise<void> = async () => undefined;

  /** Posts `body` to `path`; the parsed success body, or undefined once the view says what went wrong. */
  async function post(path: string, body: unknown): Promise<unknown> {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    view.value = { kind: 'loading' };
    try {
      const res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: current.signal,
      });
      const json: unknown = await res.json().catch(() => undefined);
      if (controller !== current) return undefined;
      // The BFF's answer is checked by the caller, with validators generated from the shared schemas (widget/validators/).
      if (res.ok) return json;
      view.value = errorView(json, res.status);
    } catch {
      if (controller === current) view.value = { kind: 'error', error: 'unavailable' };
    }
    return undefined;
  }

  async function track(): Promise<void> {
    last = track;
    const codes = [...new Set(splitCodes(text.value))];
    if (codes.length === 0) {
      invalid.value = 'empty';
      return;
    }
    // The S10 check digit is verified before any request; a bad code is flagged, the others go on.
    const bad = codes.filter((code) => !isS10(code));
    invalid.value = bad.length > 0 ? bad : undefined;
    const good = codes.filter((code) => isS10(code)).slice(0, MAX_CODES);
    const flagged = (code: string): TrackingItem => ({ kind: 'invalid', code });
    if (good.length === 0) {
      controller?.abort();
      view.value = { kind: 'results', items: codes.map(flagged) };
      return;
    }
    const json = await post('/api/tracking', { codes: good });
    if (json === undefined) return;
    if (!isTrackingLookupResponse(json)) {
      view.value = { kind: 'error', error: 'unavailable' };
      return;
    }
    const byCode = new Map(json.results.map((result) => [result.code, result]));
    view.value = {
      kind: 'results',
      items: codes.flatMap((code): TrackingItem[] => {
        if (!isS10(code)) return [flagged(code)];
        const result = byCode.get(code);
        return result ? [{ kind: 'result', result }] : [];
      }),
    };
  }

  async function findOrder(): Promise<void> {
    last = findOrder;
    const id = orderId.value.trim();
    if (!id || !cep.value.trim()) {
      orderProblem.value = 'empty';
      return;
    }
    const digits = CEP_PATTERN.test(cep.value.trim()) ? normalizeCep(cep.value.trim()) : null;
    if (!digits) {
      orderProblem.value = 'cep';
      return;
    }
    orderProblem.value = undefined;
    const json = await post('/api/orders/lookup', { orderId: id, cep: digits });
    if (json === undefined) return;
    view.value = isOrderLookupResponse(json)
      ? {
          kind: 'results',
          orderId: json.orderId,
          items: json.results.map((result) => ({ kind: 'result', result })),
        }
      : { kind: 'error', error: 'unavailable' };
  }

  return {
    text,
    orderId,
    cep,
    view,
    invalid,
    orderProblem,
    track,
    findOrder,
    retry: () => last(),
    setText(value: string): void {
      text.value = value.toUpperCase();
      invalid.value = undefined;
    },
    setOrder(field: 'orderId' | 'cep', value: string): void {
      (field === 'orderId' ? orderId : cep).value = value;
      orderProblem.value = undefined;
    },
  };
}

export type TrackingModel = ReturnType<typeof createTrackingModel>;
