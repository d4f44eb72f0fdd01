/**
 * The headers of every HTML page the servers render themselves (the OAuth login and consent, `/admin`, the sandbox's
 * onboarding): nothing inline and nothing from elsewhere (styles and images from this server only), forms post only
 * here (and to `formTargets`: the consent's redirect to the client, which Chromium checks against `form-action`),
 * never framed, never cached. `Referrer-Policy: same-origin`, so a form post carries its real `Origin` for the CSRF
 * check (a `no-referrer` page posts `Origin: null`) while no address leaves for another site.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(' ');
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
