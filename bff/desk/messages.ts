import type { Locale } from '../../shared/locale.ts';
import { DESK_EN } from './messages/en.ts';
import { DESK_ES } from './messages/es.ts';
import { DESK_PT_BR } from './messages/pt-BR.ts';

/**
 * The label desk's words, one file per language in `messages/` (pt-BR first, the type of the others; `en`, `es`),
 * read by the pages the BFF renders and by the desk's script (`client/`). The languages are the project's
 * (`shared/locale.ts`), and so is how one is picked (`language.ts`). Plurals and values are functions, so each
 * language orders its own sentence.
 */
export type Messages = typeof DESK_PT_BR;

export const MESSAGES: Record<Locale, Messages> = { 'pt-BR': DESK_PT_BR, en: DESK_EN, es: DESK_ES };

/** A label's state in words, or the state itself when the desk has no word for it. */
export function stateName(t: Messages, state: string): string {
  return t.state[state] ?? state;
}

/** A refusal's reason in words, or the code as the platform or BFF sent it. */
export function reasonName(t: Messages, reason: string): string {
  return t.reasons[reason] ?? `${reason}.`;
}
