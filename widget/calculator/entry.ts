import { loadingScript } from '../common/settings.ts';
import { define } from './element.ts';

// Read while this classic script runs: document.currentScript is only set now.
define(loadingScript('shipping-widget.js'));
