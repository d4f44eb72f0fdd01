import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser.ts';

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

/**
 * The page as it is now, under axe in light and then dark, a screenshot of each (`shotName(colorScheme)`, under
 * e2e/artifacts/); fails naming every violation with `state`, the scheme and its targets. The scheme goes back to the
 * system's after, for the steps that follow on the same page.
 */
export async function auditLightAndDark(
  page: Page,
  state: string,
  shotName: (colorScheme: 'light' | 'dark') => string,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await axeOn(page).analyze();
    expect(
      violations.map(
        (v) => `${state} ${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
    await screenshot(page, shotName(colorScheme));
  }
  await page.emulateMedia({ colorScheme: null });
}
