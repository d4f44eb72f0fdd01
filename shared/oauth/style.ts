/** The stylesheet of the OAuth pages and `/admin` (served by each server as a file: CSP `style-src 'self'`). */
export const OAUTH_CSS = `:root{color-scheme:light;font-family:system-ui,sans-serif;line-height:1.5}
body{margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}
main:has(table){max-width:60rem}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #6b7280;border-radius:4px}
fieldset{border:1px solid #d0d4da;border-radius:4px;margin:1rem 0}
fieldset label{font-weight:400;margin:.4rem 0}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid #1d4ed8;cursor:pointer}
button.primary{background:#1d4ed8;color:#fff}
button.secondary{background:#fff;color:#1d4ed8}
.error{color:#a40000;background:#fff0f0;border:1px solid #a40000;padding:.6rem;border-radius:4px}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem;border-bottom:1px solid #d0d4da;vertical-align:top}
`;
