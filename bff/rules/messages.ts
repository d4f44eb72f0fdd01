import type { Locale } from '../../shared/locale.ts';
import { RULES_WORDS_EN } from './messages/en.ts';
import { RULES_WORDS_ES } from './messages/es.ts';
import { RULES_WORDS_PT_BR } from './messages/pt-BR.ts';

/**
 * The desk's words for the shipping rules page (`/admin/rules`), one file per language in `messages/` (pt-BR first,
 * the type of the others; `en`, `es`), as the desk's own `messages/` and `order-messages/`.
 */
export type RulesMessages = typeof RULES_WORDS_PT_BR;

export const RULES_MESSAGES: Record<Locale, RulesMessages> = {
  'pt-BR': RULES_WORDS_PT_BR,
  en: RULES_WORDS_EN,
  es: RULES_WORDS_ES,
};
