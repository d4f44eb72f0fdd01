import { loadingScript } from '../common/settings.ts';
import { define } from './element.ts';

// Read while this classic script runs: document.currentScript is only set now.
const script = loadingScript('shipping-widget');
define(script?.dataset ?? {}, script?.src ?? '');
