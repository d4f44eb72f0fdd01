import { type Locale, localeOf } from '../../shared/locale.ts';

/**
 * The calculator's words, all in this one place: pt-BR by default, `lang="en"` or `lang="es"` on the element (or
 * `data-lang` on the script) switches. Each failure says what happened and what to do.
 */
const pt = {
  cepLabel: 'CEP',
  submit: 'Calcular',
  loading: 'Calculando…',
  invalidCep: 'Digite um CEP válido com 8 dígitos.',
  unknownCep: 'CEP não encontrado. Confira os números.',
  noCep: 'Não sei meu CEP',
  options: (n: number) => (n === 1 ? '1 opção de entrega' : `${n} opções de entrega`),
  deliverTo: (uf: string) => `Entrega para ${uf}`,
  free: 'Grátis',
  days: (n: number) => (n === 1 ? 'até 1 dia útil' : `até ${n} dias úteis`),
  missing: (amount: string) => `Faltam ${amount} para frete grátis`,
  /** "A partir de" (`variants`): the lightest variant's cheapest option; none: it ships free. */
  from: (price?: string) => (price ? `Frete a partir de ${price}` : 'Frete grátis disponível'),
  empty: 'Adicione itens ao carrinho para calcular o frete.',
  noCoverage: 'Ainda não entregamos neste CEP.',
  unavailable: 'Cálculo de frete indisponível no momento.',
  noQuote: 'Não foi possível calcular o frete para este CEP.',
  busy: 'Muitas consultas de frete agora. Aguarde alguns segundos e tente de novo.',
  carrier: 'A transportadora não respondeu ao cálculo do frete. Tente de novo em instantes.',
  network: 'Sem conexão com o cálculo de frete. Verifique sua internet e tente de novo.',
  retry: 'Tentar de novo',
};

export type CalculatorMessages = typeof pt;

const en: CalculatorMessages = {
  cepLabel: 'Postal code (CEP)',
  submit: 'Calculate',
  loading: 'Calculating…',
  invalidCep: 'Enter a valid 8-digit CEP.',
  unknownCep: 'CEP not found. Check the digits.',
  noCep: 'I don’t know my CEP',
  options: (n) => (n === 1 ? '1 shipping option' : `${n} shipping options`),
  deliverTo: (uf) => `Delivery to ${uf}`,
  free: 'Free',
  days: (n) => (n === 1 ? 'up to 1 business day' : `up to ${n} business days`),
  missing: (amount) => `${amount} more for free shipping`,
  from: (price) => (price ? `Shipping from ${price}` : 'Free shipping available'),
  empty: 'Add items to the cart to calculate shipping.',
  noCoverage: 'We do not deliver to this CEP yet.',
  unavailable: 'Shipping calculation is unavailable right now.',
  noQuote: 'Shipping could not be calculated for this CEP.',
  busy: 'Too many shipping quotes right now. Wait a few seconds and try again.',
  carrier: 'The carrier did not answer the shipping quote. Try again in a moment.',
  network: 'Could not reach the shipping calculator. Check your connection and try again.',
  retry: 'Try again',
};

const es: CalculatorMessages = {
  cepLabel: 'Código postal (CEP)',
  submit: 'Calcular',
  loading: 'Calculando…',
  invalidCep: 'Escribe un CEP válido de 8 dígitos.',
  unknownCep: 'CEP no encontrado. Revisa los números.',
  noCep: 'No sé mi CEP',
  options: (n) => (n === 1 ? '1 opción de envío' : `${n} opciones de envío`),
  deliverTo: (uf) => `Envío a ${uf}`,
  free: 'Gratis',
  days: (n) => (n === 1 ? 'hasta 1 día hábil' : `hasta ${n} días hábiles`),
  missing: (amount) => `Faltan ${amount} para el envío gratis`,
  from: (price) => (price ? `Envío desde ${price}` : 'Envío gratis disponible'),
  empty: 'Agrega productos al carrito para calcular el envío.',
  noCoverage: 'Todavía no enviamos a este CEP.',
  unavailable: 'El cálculo de envío no está disponible en este momento.',
  noQuote: 'No fue posible calcular el envío para este CEP.',
  busy: 'Demasiadas consultas de envío ahora. Espera unos segundos e inténtalo de nuevo.',
  carrier: 'La transportadora no respondió al cálculo del envío. Inténtalo de nuevo en un momento.',
  network: 'Sin conexión con el cálculo de envío. Revisa tu internet e inténtalo de nuevo.',
  retry: 'Intentar de nuevo',
};

export const CALCULATOR_MESSAGES: Record<Locale, CalculatorMessages> = { 'pt-BR': pt, en, es };

/** The messages and the locale for numbers and prices (`en`, `es` or `pt-BR` for anything else). */
export function messagesFor(lang: string | null | undefined): { t: CalculatorMessages; locale: Locale } {
  const locale = localeOf(lang) ?? 'pt-BR';
  return { t: CALCULATOR_MESSAGES[locale], locale };
}
