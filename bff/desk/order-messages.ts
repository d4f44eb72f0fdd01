import type { Locale } from '../../shared/locale.ts';
import { ORDER_WORDS_EN } from './order-messages/en.ts';
import { ORDER_WORDS_ES } from './order-messages/es.ts';
import { ORDER_WORDS_PT_BR } from './order-messages/pt-BR.ts';

/**
 * The desk's words for orders (the orders page, the print's report page, the CSV import), one file per language in
 * `order-messages/` (pt-BR first, the type of the others; `en`, `es`): beside `messages.ts`, read the same way by the
 * pages and the script.
 */
export type OrderMessages = typeof ORDER_WORDS_PT_BR;

export const ORDER_MESSAGES: Record<Locale, OrderMessages> = {
  'pt-BR': ORDER_WORDS_PT_BR,
  en: ORDER_WORDS_EN,
  es: ORDER_WORDS_ES,
};
