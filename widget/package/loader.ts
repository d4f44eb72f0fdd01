import type { ShippingCalculatorElement, ShippingLanguage, ShippingTrackingElement } from './elements.js';

export type * from './elements.js';

/**
 * The scripts this copy of the package was packed with: its version and each script's Subresource Integrity value.
 * `pack.ts` writes them into `dist/index.js` in place of `__WIDGET_BUILD__`.
 */
interface WidgetBuild {
  version: string;
  integrity: Record<ScriptFile, string>;
}
declare const __WIDGET_BUILD__: WidgetBuild;
const BUILD = __WIDGET_BUILD__;

type ScriptFile = 'shipping-widget.js' | 'shipping-tracking.js';

/** How long a script may take to define its element before the loader gives up (the calculator's own wait). */
const DEFAULT_TIMEOUT_MS = 15_000;

/** Where the scripts come from. */
export interface WidgetSource {
  /**
   * Your BFF's URL (`BFF_PUBLIC_URL`): the scripts are loaded from its `/widget/v1/`, with `?v=<this version>`.
   * The BFF must serve the same version as this package, or the browser refuses the script (integrity).
   */
  bffUrl?: string;
  /** Instead of `bffUrl`: the URL of a folder where you serve this package's `dist/scripts/` yourself. */
  scriptsUrl?: string;
  /** The page's CSP nonce, when its policy allows scripts by nonce. */
  nonce?: string;
  /** Milliseconds to wait for the element to be defined (default 15 s). */
  timeoutMs?: number;
}

/** `loadShippingCalculator`'s options: the script tag's `data-*` settings (widget/README.md). */
export interface ShippingCalculatorOptions extends WidgetSource {
  /** The platform's base URL. */
  apiUrl: string;
  /** The store's public key, `pk_…` (never the secret `mk_…`). */
  publicKey: string;
  lang?: ShippingLanguage;
  /** `false`: do not remember the shopper's last CEP. */
  rememberCep?: boolean;
  /** Business days the store takes to post an order. */
  handlingDays?: number;
  /** The hour, São Paulo time, from which an order is posted the next business day: `14`, `"14:30"`. */
  cutoff?: number | string;
  /** The cart subtotal in BRL from which the store offers free shipping (a hint only). */
  freeShippingFrom?: number;
  /** The store's BFF `POST /api/promises`: each option shows the date the store keeps (docs/promise.md). */
  promisesUrl?: string;
}

/** `loadShippingTracking`'s options. */
export interface ShippingTrackingOptions extends WidgetSource {
  lang?: ShippingLanguage;
}

/** Why a load failed: `code` says what to fix. */
export type WidgetLoadErrorCode =
  | 'config'
  | 'environment'
  | 'conflict'
  | 'csp'
  | 'http'
  | 'integrity'
  | 'network'
  | 'timeout';

/** A load that failed; `code` says why, the message what to do. A later call tries again. */
export class WidgetLoadError extends Error {
  override readonly name = 'WidgetLoadError';
  readonly code: WidgetLoadErrorCode;

  constructor(code: WidgetLoadErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Whether an error is a `WidgetLoadError`, across copies of the package. */
export function isWidgetLoadError(error: unknown): error is WidgetLoadError {
  return error instanceof Error && error.name === 'WidgetLoadError';
}

export interface ShippingCalculatorConstructor {
  new (): ShippingCalculatorElement;
  prototype: ShippingCalculatorElement;
}

export interface ShippingTrackingConstructor {
  new (): ShippingTrackingElement;
  prototype: ShippingTrackingElement;
}

/** The version of the widget this package ships (its scripts' `?v=`). */
export const version: string = BUILD.version;

/**
 * Loads `<shipping-calculator>`: injects its versioned script once, with its `integrity`, and resolves when the
 * element is defined. Calling it again with the same options returns the same promise; with other options it
 * rejects (the element reads its settings once: give a second store its `api-url` and `public-key` attributes).
 * Rejects with a `WidgetLoadError` when the script cannot run (a CSP, the network, other bytes, a timeout).
 *
 * @example
 * import { loadShippingCalculator } from '@frete-kit/widget';
 * await loadShippingCalculator({
 *   bffUrl: 'https://frete.your-store.example',
 *   apiUrl: 'https://api.platform.example',
 *   publicKey: 'pk_live_…',
 * });
 */
export function loadShippingCalculator(
  options: ShippingCalculatorOptions,
): Promise<ShippingCalculatorConstructor> {
  if (typeof options?.apiUrl !== 'string' || options.apiUrl === '')
    return Promise.reject(
      new WidgetLoadError('config', 'loadShippingCalculator: apiUrl (the platform URL) is required'),
    );
  if (typeof options.publicKey !== 'string' || !options.publicKey.startsWith('pk_'))
    return Promise.reject(
      new WidgetLoadError(
        'config',
        'loadShippingCalculator: publicKey must be the store’s public key (pk_…); the secret key never goes to a browser',
      ),
    );
  const settings: Record<string, string> = { apiUrl: options.apiUrl, publicKey: options.publicKey };
  if (options.lang !== undefined) settings.lang = options.lang;
  if (options.rememberCep !== undefined) settings.rememberCep = String(options.rememberCep);
  if (options.handlingDays !== undefined) settings.handlingDays = String(options.handlingDays);
  if (options.cutoff !== undefined) settings.cutoff = String(options.cutoff);
  if (options.freeShippingFrom !== undefined) settings.freeShippingFrom = String(options.freeShippingFrom);
  if (options.promisesUrl !== undefined) settings.promisesUrl = options.promisesUrl;
  return load(
    'shipping-calculator',
    'shipping-widget.js',
    settings,
    options,
  ) as Promise<ShippingCalculatorConstructor>;
}

/**
 * Loads `<shipping-tracking>` as `loadShippingCalculator` does; it looks codes up through `bffUrl` (or the page's
 * origin when the scripts come from `scriptsUrl`).
 *
 * @example
 * await loadShippingTracking({ bffUrl: 'https://frete.your-store.example' });
 */
export function loadShippingTracking(options: ShippingTrackingOptions): Promise<ShippingTrackingConstructor> {
  const settings: Record<string, string> = {};
  if (options?.bffUrl !== undefined) settings.bffUrl = options.bffUrl;
  if (options?.lang !== undefined) settings.lang = options.lang;
  return load(
    'shipping-tracking',
    'shipping-tracking.js',
    settings,
    options ?? {},
  ) as Promise<ShippingTrackingConstructor>;
}

/** One load per element for the page: its settings (to refuse other ones) and its promise. */
const loads = new Map<string, { key: string; promise: Promise<CustomElementConstructor> }>();

function load(
  tag: string,
  file: ScriptFile,
  settings: Record<string, string>,
  source: WidgetSource,
): Promise<CustomElementConstructor> {
  if (typeof document === 'undefined' || typeof customElements === 'undefined')
    return Promise.reject(
      new WidgetLoadError(
        'environment',
        `<${tag}> loads in a browser only: call the loader in an effect, not while rendering on a server`,
      ),
    );
  let url: string;
  try {
    url = scriptUrl(file, source);
  } catch (error) {
    return Promise.reject(error);
  }
  const key = JSON.stringify([url, settings]);
  const current = loads.get(tag);
  if (current && current.key !== key)
    return Promise.reject(
      new WidgetLoadError(
        'conflict',
        `<${tag}> is already loaded with other options; it reads them once (set attributes on the element instead)`,
      ),
    );
  if (current) return current.promise;
  const defined = customElements.get(tag);
  // a tag of the page's own (or another copy of this package) defined it first: the element is there
  if (defined) return Promise.resolve(defined);
  const promise = inject(tag, file, url, settings, source);
  loads.set(tag, { key, promise });
  // a failure is not kept: a later call tries again
  promise.catch(() => loads.get(tag)?.promise === promise && loads.delete(tag));
  return promise;
}

/** The versioned URL of a script: `<bffUrl>/widget/v1/<file>?v=<version>` or `<scriptsUrl>/<file>?v=<version>`. */
function scriptUrl(file: ScriptFile, { bffUrl, scriptsUrl }: WidgetSource): string {
  const base = scriptsUrl ?? (bffUrl === undefined ? undefined : `${bffUrl.replace(/\/+$/, '')}/widget/v1/`);
  if (base === undefined)
    throw new WidgetLoadError('config', 'give bffUrl (your BFF, which serves /widget/v1/) or scriptsUrl');
  const url = new URL(file, base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('v', BUILD.version);
  return url.href;
}

/** One `<script>` with the integrity of this version; resolves when the element is defined. */
function inject(
  tag: string,
  file: ScriptFile,
  url: string,
  settings: Record<string, string>,
  source: WidgetSource,
): Promise<CustomElementConstructor> {
  return new Promise<CustomElementConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    let blockedBy: string | undefined;
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (sameOrigin(event.blockedURI, url)) blockedBy = event.effectiveDirective;
    };
    const fail = (error: WidgetLoadError) => {
      done();
      script.remove();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(new WidgetLoadError('timeout', `${url} did not define <${tag}> within ${timeoutOf(source)} ms`)),
      timeoutOf(source),
    );
    function done() {
      clearTimeout(timer);
      document.removeEventListener('securitypolicyviolation', onViolation);
    }
    document.addEventListener('securitypolicyviolation', onViolation);
    script.src = url;
    script.integrity = BUILD.integrity[file];
    script.crossOrigin = 'anonymous';
    script.async = true;
    if (source.nonce) script.nonce = source.nonce;
    Object.assign(script.dataset, settings);
    script.addEventListener('error', () => {
      // the policy's violation event may come just after the error: wait one task for it
      setTimeout(() => {
        if (blockedBy) {
          fail(
            new WidgetLoadError(
              'csp',
              `${url} was blocked by the page's Content-Security-Policy (${blockedBy}): allow ${new URL(url).origin} in script-src`,
            ),
          );
          return;
        }
        void diagnose(url).then(fail);
      }, 0);
    });
    script.addEventListener('load', () => {
      if (!customElements.get(tag))
        fail(
          new WidgetLoadError('http', `${url} ran but did not define <${tag}>: is it the widget's script?`),
        );
    });
    customElements.whenDefined(tag).then((element) => {
      done();
      resolve(element);
    });
    document.head.append(script);
  });
}

/** Why a script the browser would not run failed, as far as a second request can tell. */
async function diagnose(url: string): Promise<WidgetLoadError> {
  try {
    const response = await fetch(url, { mode: 'cors', cache: 'no-store' });
    if (!response.ok) return new WidgetLoadError('http', `${url} answered ${response.status}`);
    return new WidgetLoadError(
      'integrity',
      `${url} is not the script of @frete-kit/widget ${BUILD.version} (integrity): serve the same version as this package`,
    );
  } catch {
    return new WidgetLoadError('network', `could not load ${url} (network error, or blocked)`);
  }
}

function timeoutOf(source: WidgetSource): number {
  return source.timeoutMs ?? DEFAULT_TIMEOUT_MS;
}

function sameOrigin(blocked: string, url: string): boolean {
  try {
    return new URL(blocked).origin === new URL(url).origin;
  } catch {
    return false;
  }
}
