/**
 * The `<script>` tag that loaded a bundle, found while it runs (Plausible-style); falls back to the first script whose
 * src names the bundle, for loaders that run it later.
 */
export function loadingScript(bundle: string): HTMLScriptElement | null {
  const current = document.currentScript as HTMLScriptElement | null;
  return current?.dataset ? current : document.querySelector<HTMLScriptElement>(`script[src*="${bundle}"]`);
}

/** The settings of the `<script data-*>` tag that loaded a bundle, read once while it runs. */
export function scriptSettings(bundle: string): DOMStringMap {
  return loadingScript(bundle)?.dataset ?? {};
}

/** Adopted stylesheets where supported (allowed under a CSP without 'unsafe-inline'), else a <style>. */
export function adoptStyles(root: ShadowRoot, css: string): void {
  if (
    'adoptedStyleSheets' in root &&
    typeof CSSStyleSheet === 'function' &&
    'replaceSync' in CSSStyleSheet.prototype
  ) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.append(style);
}

let counter = 0;
/** A short id unique on the page, for ids inside a shadow root. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}
