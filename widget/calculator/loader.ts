import type { CalculatorController, CalculatorHost } from './app.tsx';
import { APP_EVENT } from './files.ts';

/**
 * The calculator's second script, as the build wrote it beside the first (vite.config.ts): its file name, its
 * Subresource Integrity hash, and a short hash of its bytes for the URL (a cache never pairs this first script with
 * another build's second).
 */
declare const __CALCULATOR_APP__: { file: string; integrity: string; version: string };
const APP = __CALCULATOR_APP__;

export type MountCalculator = (host: CalculatorHost) => CalculatorController;

let appUrl = '';
let loading: Promise<MountCalculator> | undefined;

/**
 * Where the second script is: beside the first (`scriptSrc`, the `src` of the tag that loaded it), so a store that
 * copies `dist/widget/` keeps both where it serves the first. It is fetched only when `loadApp` asks, after the
 * element's first paint: fetched earlier (a `<link rel="preload">`), Chromium compiled it while the first frame was
 * due and delayed it on the bench's 2-core machine.
 */
export function locateApp(scriptSrc: string): void {
  const url = new URL(APP.file, scriptSrc || document.baseURI);
  url.searchParams.set('v', APP.version);
  appUrl = url.href;
}

/**
 * Runs the second script (once for the page) and resolves with its `mountCalculator`. It is refused by the browser
 * unless its bytes are the ones built with this first script (`integrity`); a failure is not kept, so an element
 * connected later tries again.
 */
export function loadApp(): Promise<MountCalculator> {
  loading ??= new Promise<MountCalculator>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = appUrl;
    script.integrity = APP.integrity;
    script.crossOrigin = 'anonymous';
    script.addEventListener(APP_EVENT, (event) => resolve((event as CustomEvent<MountCalculator>).detail));
    // `load` comes after the script ran: by then a real second script has resolved (a later reject does nothing).
    script.addEventListener('load', () =>
      reject(new Error(`${appUrl} is not the calculator's second script`)),
    );
    script.addEventListener('error', () =>
      reject(
        new Error(`could not load ${appUrl} (missing, blocked, or not the file built with this script)`),
      ),
    );
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
