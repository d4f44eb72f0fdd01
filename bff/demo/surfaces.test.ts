import { describe, expect, it } from 'vitest';
import { DESK_SECTIONS } from '../desk/layout.ts';
import { surfaceLinks } from './pages.ts';

// A new user finds the kit's pages from the demo's front page: every page of the desk's navigation is linked there
// (the stores page, where a held install is approved, and the rules page were not).
describe("the demo's front page", () => {
  it('links every page of the desk', () => {
    const links = surfaceLinks({
      apiUrl: 'http://127.0.0.1:4010',
      publicKey: 'pk_test_demo',
      widgetUrl: '/widget/shipping-widget.js',
      trackingUrl: '/track',
    });
    for (const section of DESK_SECTIONS) expect(links).toContain(`href="/admin/${section}"`);
  });
});
