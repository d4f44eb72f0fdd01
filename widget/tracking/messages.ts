/** The tracking page's words (pt-BR; `lang="en"` switches to English). */
export const TRACKING_MESSAGES = {
  'pt-BR': {
    label: 'Código de rastreamento',
    hint: 'Um ou mais códigos, separados por vírgula ou espaço.',
    submit: 'Rastrear',
    loading: 'Consultando…',
    invalid: (codes: string) => `Código inválido: ${codes}. Confira as letras e os 9 dígitos.`,
    empty: 'Digite um código de rastreamento.',
    delivered: 'Entregue',
    inTransit: 'Em andamento',
    noEvents: 'Ainda sem movimentação: o objeto foi criado, mas o transportador ainda não registrou eventos.',
    noEventsHeadline: 'Aguardando postagem',
    notFound: 'Objeto não encontrado. Se o envio é recente, tente de novo mais tarde.',
    stale: 'Não foi possível atualizar agora; esta é a última informação conhecida.',
    unavailable: 'Rastreamento indisponível no momento. Tente de novo em instantes.',
    limited: 'Muitas consultas seguidas. Aguarde um pouco e tente de novo.',
    retry: 'Tentar de novo',
    timeline: 'Histórico',
    results: (n: number) => (n === 1 ? '1 objeto consultado' : `${n} objetos consultados`),
  },
  en: {
    label: 'Tracking code',
    hint: 'One or more codes, separated by commas or spaces.',
    submit: 'Track',
    loading: 'Looking up…',
    invalid: (codes: string) => `Invalid code: ${codes}. Check the letters and the 9 digits.`,
    empty: 'Enter a tracking code.',
    delivered: 'Delivered',
    inTransit: 'In progress',
    noEvents: 'No movement yet: the object exists, but the carrier has not recorded any event.',
    noEventsHeadline: 'Awaiting posting',
    notFound: 'Object not found. If it was shipped recently, try again later.',
    stale: 'Could not refresh now; this is the last known information.',
    unavailable: 'Tracking is unavailable right now. Try again in a moment.',
    limited: 'Too many lookups. Wait a little and try again.',
    retry: 'Try again',
    timeline: 'History',
    results: (n: number) => (n === 1 ? '1 object' : `${n} objects`),
  },
} as const;

export type TrackingMessages = (typeof TRACKING_MESSAGES)[keyof typeof TRACKING_MESSAGES];

export function trackingMessagesFor(lang: string | null | undefined): TrackingMessages {
  return lang?.toLowerCase().startsWith('en') ? TRACKING_MESSAGES.en : TRACKING_MESSAGES['pt-BR'];
}
