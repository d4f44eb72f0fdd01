export const TRACKING_CSS = `
:host{display:block;font-family:var(--shipping-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--shipping-color-text,#1f2328);line-height:1.45}
*{box-sizing:border-box}
.label{display:block;font-weight:600}
.hint{margin:.125rem 0 .375rem;color:var(--shipping-color-muted,#57606a);font-size:.875em}
.row{display:flex;gap:.5rem;flex-wrap:wrap}
.input{flex:1 1 14rem;font:inherit;padding:.55rem .75rem;border:1px solid var(--shipping-color-border,#8c959f);border-radius:var(--shipping-radius,.375rem);text-transform:uppercase}
.input[aria-invalid=true]{border-color:var(--shipping-color-error,#b3261e)}
.button,.retry{font:inherit;font-weight:600;padding:.55rem 1.1rem;border:0;border-radius:var(--shipping-radius,.375rem);background:var(--shipping-color-accent,#0a5bd3);color:#fff;cursor:pointer}
.retry{background:transparent;color:var(--shipping-color-accent,#0a5bd3);border:1px solid currentColor}
.input:focus-visible,.button:focus-visible,.retry:focus-visible{outline:3px solid var(--shipping-color-focus,#0a5bd3);outline-offset:2px}
.field-error{min-height:1.4em;margin:.25rem 0 .5rem;color:var(--shipping-color-error,#b3261e);font-size:.9em}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.message{color:var(--shipping-color-muted,#57606a)}
.card{background:var(--shipping-color-background,#fff);border:1px solid var(--shipping-color-border,#d0d7de);border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.card-delivered{border-left:4px solid var(--shipping-color-free,#116329)}
.card-returned,.card-problem{border-left:4px solid #9a6700}
.card-awaiting-pickup,.card-out-for-delivery{border-left:4px solid var(--shipping-color-accent,#0a5bd3)}
.card-head{display:flex;justify-content:space-between;align-items:center;gap:.5rem;flex-wrap:wrap}
.code{margin:0;font-size:1.05rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;letter-spacing:.03em}
.badge{font-size:.8rem;font-weight:700;padding:.15rem .55rem;border-radius:999px;background:#ddf4ff;color:#0a3069}
.badge-delivered{background:#dafbe1;color:#0f5323}
.badge-out-for-delivery,.badge-awaiting-pickup{background:#ddf4ff;color:#0a3069;outline:1px solid #0a3069}
.badge-returned,.badge-problem{background:#fff1e5;color:#762c00}
.badge-no-events,.badge-not-found{background:#eaeef2;color:#24292f}
.next{margin:.25rem 0 .5rem}
.details{margin-top:.5rem;font-size:.85em;color:var(--shipping-color-muted,#57606a)}
.details summary{cursor:pointer}
.details-list{margin:.25rem 0 0;padding-left:1rem}
.headline{font-weight:600;margin:.5rem 0}
.stale{margin:.25rem 0;padding:.4rem .6rem;background:#fff8c5;color:#4d2d00;border-radius:.375rem;font-size:.9em}
.no-events{color:var(--shipping-color-muted,#57606a)}
.timeline-title{font-size:.9rem;margin:.75rem 0 .25rem;color:var(--shipping-color-muted,#57606a)}
.timeline{list-style:none;margin:0;padding:0 0 0 1rem;border-left:2px solid var(--shipping-color-border,#d0d7de)}
.event{position:relative;padding:0 0 .75rem .75rem}
.event::before{content:"";position:absolute;left:-1.4rem;top:.45rem;width:.6rem;height:.6rem;border-radius:50%;background:var(--shipping-color-accent,#0a5bd3)}
.event p{margin:0}
.event-description{font-weight:600}
.event-time{font-size:.85em;color:var(--shipping-color-muted,#57606a)}
.event-route{font-size:.85em;color:var(--shipping-color-muted,#57606a)}
.order-form{margin-top:.25rem}
.field{display:flex;flex-direction:column;flex:1 1 10rem}
.field-cep{flex:0 1 9rem}
.field .hint{margin:0 0 .2rem}
.input-plain{text-transform:none;flex:0 0 auto;width:100%}
.button-end{align-self:flex-end}
.order-heading{font-size:1.15rem;margin:0 0 .75rem}
.card-invalid{border-left:4px solid var(--shipping-color-error,#b3261e)}
.badge-invalid{background:#ffebe9;color:#82071e}
`;
