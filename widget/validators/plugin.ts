import type { Plugin } from 'vite';
import { validatorsModule } from './codegen.ts';

/** The module the widgets import; it exists only as `validatorsModule()`'s output, generated when bundled. */
const GENERATED = /[\\/]widget[\\/]validators[\\/]generated\.js$/;

/**
 * Serves `widget/validators/generated.js` (typed by `generated.d.ts`) from the shared zod schemas, for `vite build`
 * and for vitest alike: the code the tests check is the code that ships.
 */
export function validatorsPlugin(): Plugin {
  return {
    name: 'frete-kit:validators',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith('generated.js') || !importer) return null;
      const resolved = new URL(source, `file://${importer}`).pathname;
      return GENERATED.test(resolved) ? resolved : null;
    },
    load(id) {
      return GENERATED.test(id) ? validatorsModule() : null;
    },
  };
}
