import { scriptSettings } from '../common/settings.ts';
import { defineCalculator } from './element.tsx';

// Read while this classic script runs: document.currentScript is only set now.
defineCalculator(scriptSettings('shipping-widget'));
