/**
 * Shadow-root styles; themable through `--shipping-*` custom properties and `::part()`. Each color is read once on
 * `:host` into a private `--_x`, whose default follows the theme: light, or dark under `prefers-color-scheme: dark`
 * unless `data-theme="light"`, or dark with `data-theme="dark"`. A store's `--shipping-color-*` wins in both.
 * Every default pair keeps WCAG AA contrast (checked by axe in the e2e tests, in both themes). In dark, the widget
 * paints its own surface (`--shipping-color-background`), so it stays readable on a page that has no dark theme.
 */
const DARK =
  'color-scheme:dark;--_t:var(--shipping-color-text,#e6edf3);--_m:var(--shipping-color-muted,#9198a1);--_bg:var(--shipping-color-background,#0d1117);--_b:var(--shipping-color-border,#7d8590);--_ob:var(--shipping-color-border,#3d444d);--_a:var(--shipping-color-accent,#4493f8);--_at:var(--shipping-color-accent-text,#0d1117);--_fo:var(--shipping-color-focus,#4493f8);--_e:var(--shipping-color-error,#ff7b72);--_f:var(--shipping-color-free,#3fb950);--_s:var(--_bg);--_p:.75rem';

export const CALCULATOR_CSS = `
:host{color-scheme:light;--_t:var(--shipping-color-text,#1f2328);--_m:var(--shipping-color-muted,#57606a);--_bg:var(--shipping-color-background,#fff);--_b:var(--shipping-color-border,#8c959f);--_ob:var(--shipping-color-border,#d0d7de);--_a:var(--shipping-color-accent,#0a5bd3);--_at:var(--shipping-color-accent-text,#fff);--_fo:var(--shipping-color-focus,#0a5bd3);--_e:var(--shipping-color-error,#b3261e);--_f:var(--shipping-color-free,#116329);--_s:transparent;--_p:0;display:block;font-family:var(--shipping-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--_t);font-size:var(--shipping-font-size,1rem);line-height:1.4}
@media (prefers-color-scheme:dark){:host(:not([data-theme=light])){${DARK}}}
:host([data-theme=dark]){${DARK}}
:host([hidden]){display:none}
*{box-sizing:border-box}
.calculator{background:var(--_s);padding:var(--_p);border-radius:var(--shipping-radius,.375rem)}
.label{display:block;font-weight:600;margin-bottom:.25rem}
.row{display:flex;gap:.5rem}
.input{flex:1 1 auto;min-width:0;max-width:12rem;font:inherit;padding:.5rem .75rem;border:1px solid var(--_b);border-radius:var(--shipping-radius,.375rem);background:var(--_bg);color:inherit}
.input[aria-invalid=true]{border-color:var(--_e)}
.button,.retry{display:inline-grid;font:inherit;font-weight:600;padding:.5rem 1rem;border:0;border-radius:var(--shipping-radius,.375rem);background:var(--_a);color:var(--_at);cursor:pointer}
.button>span{grid-area:1/1}
.hidden{visibility:hidden}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.input:focus-visible,.button:focus-visible,.retry:focus-visible,.cep-search:focus-visible,.option:focus-within{outline:3px solid var(--_fo);outline-offset:2px}
.field-error{min-height:1.4em;margin:.25rem 0 0;color:var(--_e);font-size:.875em}
.results{display:flow-root;min-height:var(--shipping-results-min-height,14rem)}
.message{margin:.5rem 0;color:var(--_m)}
.message p{margin:0 0 .5rem}
.retry{background:transparent;color:var(--_a);border:1px solid currentColor}
.options{border:0;margin:0;padding:0}
.legend{padding:0;margin-bottom:.25rem;font-size:.875em;color:var(--_m)}
.option{display:grid;grid-template-columns:auto 1fr auto;grid-template-areas:"radio label price" "radio promise price" "radio same price";column-gap:.5rem;align-items:center;padding:.5rem .75rem;margin-bottom:.375rem;border:1px solid var(--_ob);border-radius:var(--shipping-radius,.375rem);cursor:pointer}
.option.selected{border-color:var(--_a)}
.option input{grid-area:radio;margin:0;accent-color:var(--_a)}
.option-label{grid-area:label;font-weight:600}
.option-promise{grid-area:promise;font-size:.875em}
.option-same{grid-area:same;font-size:.8125em;color:var(--_m)}
.cep-search{display:inline-block;margin-bottom:.5rem;font-size:.875em;color:var(--_a)}
.progress{margin:.25rem 0 0;font-size:.875em;color:var(--_m)}
.option-price{grid-area:price;font-weight:700}
.option-price.free{color:var(--_f)}
`;
