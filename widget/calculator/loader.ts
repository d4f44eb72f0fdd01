import type { CalculatorController, CalculatorHost } from './app.tsx';
import { APP_EVENT } from './handoff.ts';

/**
 * The calculator's second script, as the build wrote it beside the first (vite.config.ts): its file name, which
 * holds a hash of its bytes, and its Subresource Integrity hash.
 */
declare const __CALCULATOR_APP__: { file: string; integrity: string };
const APP = __CALCULATOR_APP__;

/** How long the second script may take before the form says the calculator is unavailable. */
const LOAD_TIMEOUT_MS = 15_000;

export type MountCalculator = (host: CalculatorHost) => CalculatorController;

let appUrl: string | undefined;
let nonce = '';
let loading: Promise<MountCalculator> | undefined;

/**
 * Where the second script is: beside the first (`script`, the tag that loaded it), so a store that copies
 * `dist/widget/` keeps both where it serves the first; and the first's CSP nonce, which the second needs as well.
 * It is fetched only when `loadApp` asks, after the element's first paint: fetched earlier (a `<link
 * rel="preload">`), Chromium compiled it while the first frame was due and delayed it on the bench's machine.
 */
export function locateApp(script: HTMLScriptElement | null): void {
  nonce = script?.nonce ?? '';
  try {
    appUrl = new URL(APP.file, script?.src || document.baseURI).href;
  } catch {
    appUrl = undefined; // a first script from a blob: or data: URL has nowhere to find its second
  }
}

/**
 * Runs the second script (once for the page) and resolves with its `mountCalculator`. It is refused by the browser
 * unless its bytes are the ones built with this first script (`integrity`); one that has not run within
 * `LOAD_TIMEOUT_MS` counts as failed. A failure is not kept: a later try loads it again.
 */
export function loadApp(): Promise<MountCalculator> {
  loading ??= new Promise<MountCalculator>((resolve, reject) => {
    if (!appUrl) {
      reject(new Error(`no URL for ${APP.file}: load shipping-widget.js from its own URL`));
      return;
    }
    const url = appUrl;
    const script = document.createElement('script');
    script.src = url;
    script.integrity = APP.integrity;
    script.crossOrigin = 'anonymous';
    if (nonce) script.nonce = nonce;
    const timer = setTimeout(() => reject(new Error(`${url} did not load within 15 s`)), LOAD_TIMEOUT_MS);
    script.addEventListener(APP_EVENT, (event) => {
      clearTimeout(timer);
      resolve((event as CustomEvent<MountCalculator>).detail);
    });
    // `load` comes after the script ran: by then a real second script has resolved (a later reject does nothing).
    script.addEventListener('load', () =>
      reject(new Error(`${url} ran but did not hand over the calculator`)),
    );
    script.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error(`could not load ${url} (missing, blocked, or not the file built with this script)`));
    });
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
