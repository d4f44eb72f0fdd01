/**
 * Shadow-root styles of `<shipping-tracking>`, themed like the calculator's (`widget/calculator/styles.ts`): each
 * color read once on `:host` into a private `--_x` whose default follows `prefers-color-scheme`, overridden by
 * `data-theme="light" | "dark"`; a store's `--shipping-color-*` wins in both. The badges keep AA contrast in both.
 * In dark it paints its own surface, so a page that stays light does not put light text on white.
 */
const DARK =
  'color-scheme:dark;--_t:var(--shipping-color-text,#e6edf3);--_m:var(--shipping-color-muted,#9198a1);--_bg:var(--shipping-color-background,#0d1117);--_b:var(--shipping-color-border,#7d8590);--_cb:var(--shipping-color-border,#3d444d);--_a:var(--shipping-color-accent,#4493f8);--_at:var(--shipping-color-accent-text,#0d1117);--_fo:var(--shipping-color-focus,#4493f8);--_e:var(--shipping-color-error,#ff7b72);--_f:var(--shipping-color-free,#3fb950);--_w:#d29922;--_ib:#0c2d6b;--_it:#cae8ff;--_ob:#033a16;--_ot:#aff5b4;--_pb:#3d1e00;--_pt:#ffdfb6;--_nb:#262c36;--_nt:#d1d9e0;--_sb:#3b2300;--_st:#f8e3a1;--_s:var(--_bg);--_p:.75rem';

export const TRACKING_CSS = `
:host{color-scheme:light;--_t:var(--shipping-color-text,#1f2328);--_m:var(--shipping-color-muted,#57606a);--_bg:var(--shipping-color-background,#fff);--_b:var(--shipping-color-border,#8c959f);--_cb:var(--shipping-color-border,#d0d7de);--_a:var(--shipping-color-accent,#0a5bd3);--_at:var(--shipping-color-accent-text,#fff);--_fo:var(--shipping-color-focus,#0a5bd3);--_e:var(--shipping-color-error,#b3261e);--_f:var(--shipping-color-free,#116329);--_w:#9a6700;--_ib:#ddf4ff;--_it:#0a3069;--_ob:#dafbe1;--_ot:#0f5323;--_pb:#fff1e5;--_pt:#762c00;--_nb:#eaeef2;--_nt:#24292f;--_sb:#fff8c5;--_st:#4d2d00;--_s:transparent;--_p:0;display:block;font-family:var(--shipping-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--_t);line-height:1.45}
@media (prefers-color-scheme:dark){:host(:not([data-theme=light])){${DARK}}}
:host([data-theme=dark]){${DARK}}
*{box-sizing:border-box}
.tracking{background:var(--_s);padding:var(--_p);border-radius:.5rem}
.label{display:block;font-weight:600}
.hint{margin:.125rem 0 .375rem;color:var(--_m);font-size:.875em}
.row{display:flex;gap:.5rem;flex-wrap:wrap}
.input{flex:1 1 14rem;font:inherit;padding:.55rem .75rem;border:1px solid var(--_b);border-radius:var(--shipping-radius,.375rem);background:var(--_bg);color:inherit;text-transform:uppercase}
.input[aria-invalid=true]{border-color:var(--_e)}
.button,.retry{font:inherit;font-weight:600;padding:.55rem 1.1rem;border:0;border-radius:var(--shipping-radius,.375rem);background:var(--_a);color:var(--_at);cursor:pointer}
.retry{background:transparent;color:var(--_a);border:1px solid currentColor}
.input:focus-visible,.button:focus-visible,.retry:focus-visible{outline:3px solid var(--_fo);outline-offset:2px}
.field-error{min-height:1.4em;margin:.25rem 0 .5rem;color:var(--_e);font-size:.9em}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.message{color:var(--_m)}
.card{background:var(--_bg);border:1px solid var(--_cb);border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.card-delivered{border-left:4px solid var(--_f)}
.card-returned,.card-problem{border-left:4px solid var(--_w)}
.card-awaiting-pickup,.card-out-for-delivery{border-left:4px solid var(--_a)}
.card-head{display:flex;justify-content:space-between;align-items:center;gap:.5rem;flex-wrap:wrap}
.code{margin:0;font-size:1.05rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;letter-spacing:.03em}
.badge{font-size:.8rem;font-weight:700;padding:.15rem .55rem;border-radius:999px;background:var(--_ib);color:var(--_it)}
.badge-delivered{background:var(--_ob);color:var(--_ot)}
.badge-out-for-delivery,.badge-awaiting-pickup{background:var(--_ib);color:var(--_it);outline:1px solid var(--_it)}
.badge-returned,.badge-problem,.badge-late,.badge-stalled{background:var(--_pb);color:var(--_pt)}
.badge-no-events,.badge-not-found{background:var(--_nb);color:var(--_nt)}
.next{margin:.25rem 0 .5rem}
.details{margin-top:.5rem;font-size:.85em;color:var(--_m)}
.details summary{cursor:pointer}
.details-list{margin:.25rem 0 0;padding-left:1rem}
.headline{font-weight:600;margin:.5rem 0}
.stale{margin:.25rem 0;padding:.4rem .6rem;background:var(--_sb);color:var(--_st);border-radius:.375rem;font-size:.9em}
.timeline-title{font-size:.9rem;margin:.75rem 0 .25rem;color:var(--_m)}
.timeline{list-style:none;margin:0;padding:0 0 0 1rem;border-left:2px solid var(--_cb)}
.event{position:relative;padding:0 0 .75rem .75rem}
.event::before{content:"";position:absolute;left:-1.4rem;top:.45rem;width:.6rem;height:.6rem;border-radius:50%;background:var(--_a)}
.event p{margin:0}
.event-description{font-weight:600}
.event-time,.event-route{font-size:.85em;color:var(--_m)}
.order-form{margin-top:.25rem}
.field{display:flex;flex-direction:column;flex:1 1 10rem}
.field-cep{flex:0 1 9rem}
.field .hint{margin:0 0 .2rem}
.input-plain{text-transform:none;flex:0 0 auto;width:100%}
.button-end{align-self:flex-end}
.order-heading{font-size:1.15rem;margin:0 0 .75rem}
.card-invalid{border-left:4px solid var(--_e)}
.badge-invalid{background:var(--_pb);color:var(--_pt)}
`;
