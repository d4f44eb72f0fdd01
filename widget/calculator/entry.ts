import { scriptSettings } from '../common/settings.ts';
import { define } from './element.tsx';

// Read while this classic script runs: document.currentScript is only set now.
define(scriptSettings('shipping-widget'));
