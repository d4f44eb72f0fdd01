import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sriHash } from './integrity.ts';

/**
 * The calculator's second script is named by a hash of its bytes (`shipping-widget-app.<12 hex>.js`): a first script
 * names the one it was built with, and a server that keeps older ones (the build never deletes them) answers a first
 * script a browser still has in its cache with its own second, not a newer one its integrity would refuse.
 */
const APP_NAME = /shipping-widget-app\.[0-9a-f]{12}\.js/;
const APP_FILE = new RegExp(`^${APP_NAME.source}$`);

/** The file the calculator-app build writes, renamed by `nameCalculatorApp`, and the pointer to the current one. */
const BUILT = 'shipping-widget-app.js';
const CURRENT = '.calculator-app';

/** Whether `file` is a calculator second script (served as immutable: its name changes with its bytes). */
export function isCalculatorApp(file: string): boolean {
  return APP_FILE.test(file);
}

/** The second script a first script names, if any. */
export function appNamedBy(firstScript: string): string | undefined {
  return APP_NAME.exec(firstScript)?.[0];
}

/** The second script the built `shipping-widget.js` in `dir` names (tests and benches); throws when there is none. */
export function builtCalculatorApp(dir: string): string {
  const name = appNamedBy(readFileSync(join(dir, 'shipping-widget.js'), 'utf8'));
  if (!name) throw new Error(`${dir}/shipping-widget.js names no second script: run npm run build`);
  return name;
}

/** After the calculator-app build: renames its output by its hash and records it as the current one. */
export function nameCalculatorApp(dir: string): string {
  const bytes = readFileSync(join(dir, BUILT));
  const name = `shipping-widget-app.${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.js`;
  renameSync(join(dir, BUILT), join(dir, name));
  writeFileSync(join(dir, CURRENT), `${name}\n`);
  return name;
}

/** What the first script's build embeds (widget/calculator/loader.ts): the current second script and its integrity. */
export function currentCalculatorApp(dir: string): { file: string; integrity: string } {
  const pointer = join(dir, CURRENT);
  if (!existsSync(pointer))
    throw new Error(`${pointer} is missing: build the calculator's second script first`);
  const file = readFileSync(pointer, 'utf8').trim();
  return { file, integrity: sriHash(readFileSync(join(dir, file))) };
}
