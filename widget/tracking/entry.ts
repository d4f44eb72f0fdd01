import { scriptSettings } from '../common/settings.ts';
import { defineTracking } from './element.tsx';

defineTracking(scriptSettings('shipping-tracking'));
