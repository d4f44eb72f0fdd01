import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * axe over the page as it is now, its shadow roots included, in axe's "legacy" mode: `axe.run` in the page itself.
 * The default mode analyzes each frame apart and then opens a blank page of its own to merge the results — made for
 * cross-origin frames — which our pages do not have; it cost 2.0 s an analysis against 0.77 s here (measured side by
 * side on one page, five runs each), and the desk's sweep alone runs 64 analyses. The MCP Apps host test, whose
 * apps are sandboxed cross-origin frames, keeps the default mode.
 */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}
