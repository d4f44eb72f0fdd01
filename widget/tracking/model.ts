import { signal } from '@preact/signals';
import { MAX_CODES } from '../../shared/limits.ts';
import { cleanTrackingCode, isS10 } from '../../shared/s10.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import { isErrorBody, isTrackingLookupResponse } from '../validators/generated.js';

export type TrackingView =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'results'; results: TrackingLookupResult[] }
  | { kind: 'error'; error: 'unavailable' | 'limited' };

/** Splits what the visitor typed into codes, upper-cased. */
export function splitCodes(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map(cleanTrackingCode)
    .filter(Boolean);
}

/** The tracking element's state: codes in, results from the BFF's `POST /api/tracking` out. */
export function createTrackingModel(options: { bffUrl: string; fetch?: typeof fetch }) {
  const text = signal('');
  const view = signal<TrackingView>({ kind: 'idle' });
  const invalid = signal<string[] | 'empty' | undefined>(undefined);
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let controller: AbortController | undefined;

  async function track(): Promise<void> {
    const codes = splitCodes(text.value);
    if (codes.length === 0) {
      invalid.value = 'empty';
      return;
    }
    // The S10 check digit is verified before any request.
    const bad = codes.filter((code) => !isS10(code));
    if (bad.length > 0) {
      invalid.value = bad;
      return;
    }
    invalid.value = undefined;
    controller?.abort();
    const current = new AbortController();
    controller = current;
    view.value = { kind: 'loading' };
    try {
      const res = await doFetch(`${options.bffUrl.replace(/\/+$/, '')}/api/tracking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ codes: [...new Set(codes)].slice(0, MAX_CODES) }),
        signal: current.signal,
      });
      const json: unknown = await res.json().catch(() => undefined);
      if (controller !== current) return;
      // The BFF's answer, checked with validators generated from the shared schemas (widget/validators/).
      if (res.ok && isTrackingLookupResponse(json)) {
        view.value = { kind: 'results', results: json.results };
        return;
      }
      const code = isErrorBody(json) ? json.error.code : undefined;
      view.value = { kind: 'error', error: code === 'rate_limited' ? 'limited' : 'unavailable' };
    } catch {
      if (controller === current) view.value = { kind: 'error', error: 'unavailable' };
    }
  }

  return {
    text,
    view,
    invalid,
    track,
    setText(value: string): void {
      text.value = value.toUpperCase();
      invalid.value = undefined;
    },
  };
}

export type TrackingModel = ReturnType<typeof createTrackingModel>;
