/** The calculator's words, pt-BR by default; `lang="en"` on the element switches to English. */
export const MESSAGES = {
  'pt-BR': {
    title: 'Calcular frete',
    cepLabel: 'CEP',
    submit: 'Calcular',
    loading: 'Calculando…',
    invalidCep: 'Digite um CEP válido com 8 dígitos.',
    unknownCep: 'CEP não encontrado. Confira os números.',
    options: (n: number) => (n === 1 ? '1 opção de entrega' : `${n} opções de entrega`),
    free: 'Grátis',
    days: (n: number) => (n === 1 ? 'até 1 dia útil' : `até ${n} dias úteis`),
    noCoverage: 'Ainda não entregamos neste CEP.',
    unavailable: 'Cálculo de frete indisponível no momento.',
    noQuote: 'Não foi possível calcular o frete para este CEP.',
    busy: 'O cálculo de frete está sobrecarregado. Tente de novo em instantes.',
    network: 'Sem conexão com o cálculo de frete. Verifique sua internet e tente de novo.',
    retry: 'Tentar de novo',
  },
  en: {
    title: 'Shipping calculator',
    cepLabel: 'Postal code (CEP)',
    submit: 'Calculate',
    loading: 'Calculating…',
    invalidCep: 'Enter a valid 8-digit CEP.',
    unknownCep: 'CEP not found. Check the digits.',
    options: (n: number) => (n === 1 ? '1 shipping option' : `${n} shipping options`),
    free: 'Free',
    days: (n: number) => (n === 1 ? 'up to 1 business day' : `up to ${n} business days`),
    noCoverage: 'We do not deliver to this CEP yet.',
    unavailable: 'Shipping calculation is unavailable right now.',
    noQuote: 'Shipping could not be calculated for this CEP.',
    busy: 'The shipping calculator is busy. Try again in a moment.',
    network: 'Could not reach the shipping calculator. Check your connection and try again.',
    retry: 'Try again',
  },
} as const;

export type Lang = keyof typeof MESSAGES;
export type Messages = (typeof MESSAGES)[Lang];

/** The messages and the locale for numbers and prices. */
export function messagesFor(lang: string | null | undefined): { t: Messages; locale: Lang } {
  const locale: Lang = lang?.toLowerCase().startsWith('en') ? 'en' : 'pt-BR';
  return { t: MESSAGES[locale], locale };
}
