import { mountCalculator } from './app.tsx';
import { APP_EVENT } from './handoff.ts';

// The second script of the calculator: it hands the calculator to the element that loaded it, through the script
// element itself (read while this classic script runs: document.currentScript is only set now). Nothing global.
document.currentScript?.dispatchEvent(new CustomEvent(APP_EVENT, { detail: mountCalculator }));
