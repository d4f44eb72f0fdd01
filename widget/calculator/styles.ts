/** Shadow-root styles; themable through `--shipping-*` custom properties and `::part()`. */
export const CALCULATOR_CSS = `
:host{display:block;font-family:var(--shipping-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--shipping-color-text,#1f2328);font-size:var(--shipping-font-size,1rem);line-height:1.4}
:host([hidden]){display:none}
*{box-sizing:border-box}
.label{display:block;font-weight:600;margin-bottom:.25rem}
.row{display:flex;gap:.5rem}
.input{flex:1 1 auto;min-width:0;max-width:12rem;font:inherit;padding:.5rem .75rem;border:1px solid var(--shipping-color-border,#8c959f);border-radius:var(--shipping-radius,.375rem);background:var(--shipping-color-background,#fff);color:inherit}
.input[aria-invalid=true]{border-color:var(--shipping-color-error,#b3261e)}
.button,.retry{display:inline-grid;font:inherit;font-weight:600;padding:.5rem 1rem;border:0;border-radius:var(--shipping-radius,.375rem);background:var(--shipping-color-accent,#0a5bd3);color:var(--shipping-color-accent-text,#fff);cursor:pointer}
.button>span{grid-area:1/1}
.hidden{visibility:hidden}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.input:focus-visible,.button:focus-visible,.retry:focus-visible,.cep-search:focus-visible,.option:focus-within{outline:3px solid var(--shipping-color-focus,#0a5bd3);outline-offset:2px}
.field-error{min-height:1.4em;margin:.25rem 0 0;color:var(--shipping-color-error,#b3261e);font-size:.875em}
.results{display:flow-root;min-height:var(--shipping-results-min-height,14rem)}
.message{margin:.5rem 0;color:var(--shipping-color-muted,#57606a)}
.message p{margin:0 0 .5rem}
.retry{background:transparent;color:var(--shipping-color-accent,#0a5bd3);border:1px solid currentColor}
.options{border:0;margin:0;padding:0}
.legend{padding:0;margin-bottom:.25rem;font-size:.875em;color:var(--shipping-color-muted,#57606a)}
.option{display:grid;grid-template-columns:auto 1fr auto;grid-template-areas:"radio label price" "radio arrival price" "radio days price";column-gap:.5rem;align-items:center;padding:.5rem .75rem;margin-bottom:.375rem;border:1px solid var(--shipping-color-border,#d0d7de);border-radius:var(--shipping-radius,.375rem);cursor:pointer}
.option.selected{border-color:var(--shipping-color-accent,#0a5bd3)}
.option input{grid-area:radio;margin:0;accent-color:var(--shipping-color-accent,#0a5bd3)}
.option-label{grid-area:label;font-weight:600}
.option-arrival{grid-area:arrival;font-size:.875em}
.option-days{grid-area:days;font-size:.8125em;color:var(--shipping-color-muted,#57606a)}
.cep-search{display:inline-block;margin-bottom:.5rem;font-size:.875em;color:var(--shipping-color-accent,#0a5bd3)}
.progress{margin:.25rem 0 0;font-size:.875em;color:var(--shipping-color-muted,#57606a)}
.option-price{grid-area:price;font-weight:700}
.option-price.free{color:var(--shipping-color-free,#116329)}
`;
