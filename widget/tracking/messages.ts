import { type Locale, localeOf } from '../../shared/locale.ts';
import type { ParcelStatus } from './status.ts';

/** A badge and the one-line next step for the person waiting, per status; `where` is the unit the carrier names. */
type StatusWords = Record<ParcelStatus, { badge: string; next: (where?: string) => string }>;

const ptStatus: StatusWords = {
  posted: { badge: 'Postado', next: () => 'Nada a fazer agora: o objeto já está com os Correios.' },
  'in-transit': { badge: 'Em trânsito', next: () => 'Nada a fazer agora: o objeto está a caminho.' },
  'out-for-delivery': {
    badge: 'Saiu para entrega',
    next: () => 'Chega hoje: tenha alguém no endereço para receber.',
  },
  'awaiting-pickup': {
    badge: 'Aguardando retirada',
    next: (where) =>
      where
        ? `Retire com um documento com foto em: ${where}.`
        : 'Retire na unidade dos Correios indicada, com um documento com foto.',
  },
  delivered: { badge: 'Entregue', next: () => 'Não recebeu? Fale com a loja.' },
  returned: {
    badge: 'Devolvido ao remetente',
    next: () => 'O objeto voltou para a loja: fale com ela para combinar novo envio ou reembolso.',
  },
  problem: {
    badge: 'Problema na entrega',
    next: () => 'A entrega não foi feita: confira o endereço com a loja; pode haver nova tentativa.',
  },
  'no-events': {
    badge: 'Aguardando postagem',
    next: () => 'A loja criou o envio, mas o objeto ainda não foi postado. Volte mais tarde.',
  },
  'not-found': {
    badge: 'Não encontrado',
    next: () => 'Confira o código. Se o envio é recente, tente de novo mais tarde.',
  },
};

const pt = {
  label: 'Código de rastreamento',
  hint: 'Um ou mais códigos, separados por vírgula ou espaço.',
  submit: 'Rastrear',
  loading: 'Consultando…',
  invalid: (codes: string) => `Código inválido: ${codes}. Confira as letras e os 9 dígitos.`,
  empty: 'Digite um código de rastreamento.',
  status: ptStatus,
  /** The word between date and time: "20/11/2026 às 01:34". */
  at: 'às',
  /** The carrier's date year first ("2026-11-20 at 01:34"), where day first would read as a month (English). */
  yearFirst: false,
  since: (when: string) => `Desde ${when}.`,
  /** The store's delivery promise for a parcel on its way (`dates`: "até qua., 26/11", "entre 3 e 5/12"). */
  promise: (dates: string) => `Previsão de entrega: ${dates}`,
  locale: 'pt-BR' as Locale,
  stale: 'Não foi possível atualizar agora; esta é a última informação conhecida.',
  unavailable: 'Rastreamento indisponível no momento. Tente de novo em instantes.',
  limited: 'Muitas consultas seguidas. Aguarde um pouco e tente de novo.',
  retry: 'Tentar de novo',
  timeline: 'Histórico',
  details: 'Detalhes do transportador',
  results: (n: number) => (n === 1 ? '1 objeto consultado' : `${n} objetos consultados`),
  invalidBadge: 'Código inválido',
  invalidNext: 'Confira as letras e os 9 dígitos deste código; os outros foram consultados.',
  orderTitle: 'Não tem o código? Busque pelo pedido',
  orderLabel: 'Número do pedido',
  cepLabel: 'CEP de entrega',
  orderSubmit: 'Buscar pedido',
  orderEmpty: 'Digite o número do pedido e o CEP de entrega.',
  cepInvalid: 'O CEP tem 8 dígitos (ex.: 01310-100).',
  orderNotFound: 'Não encontramos um pedido com esse número e CEP. Confira os dois e tente de novo.',
  order: (id: string) => `Pedido ${id}`,
};

export type TrackingMessages = typeof pt;

const en: TrackingMessages = {
  label: 'Tracking code',
  hint: 'One or more codes, separated by commas or spaces.',
  submit: 'Track',
  loading: 'Looking up…',
  invalid: (codes) => `Invalid code: ${codes}. Check the letters and the 9 digits.`,
  empty: 'Enter a tracking code.',
  status: {
    posted: { badge: 'Posted', next: () => 'Nothing to do now: the carrier has the parcel.' },
    'in-transit': { badge: 'In transit', next: () => 'Nothing to do now: the parcel is on its way.' },
    'out-for-delivery': {
      badge: 'Out for delivery',
      next: () => 'Arriving today: have someone at the address to receive it.',
    },
    'awaiting-pickup': {
      badge: 'Awaiting pickup',
      next: (where) =>
        where
          ? `Pick it up with a photo ID at: ${where}.`
          : 'Pick it up at the carrier’s unit with a photo ID.',
    },
    delivered: { badge: 'Delivered', next: () => 'Didn’t get it? Contact the store.' },
    returned: {
      badge: 'Returned to sender',
      next: () => 'The parcel went back to the store: contact them to arrange a new shipment or a refund.',
    },
    problem: {
      badge: 'Delivery problem',
      next: () =>
        'It could not be delivered: check the address with the store; there may be another attempt.',
    },
    'no-events': {
      badge: 'Awaiting posting',
      next: () => 'The store created the shipment, but the parcel has not been posted yet. Check back later.',
    },
    'not-found': {
      badge: 'Not found',
      next: () => 'Check the code. If it was shipped recently, try again later.',
    },
  },
  at: 'at',
  yearFirst: true,
  since: (when) => `Since ${when}.`,
  promise: (dates) => `Expected delivery: ${dates}`,
  locale: 'en',
  stale: 'Could not refresh now; this is the last known information.',
  unavailable: 'Tracking is unavailable right now. Try again in a moment.',
  limited: 'Too many lookups. Wait a little and try again.',
  retry: 'Try again',
  timeline: 'History',
  details: 'Carrier details',
  results: (n) => (n === 1 ? '1 object' : `${n} objects`),
  invalidBadge: 'Invalid code',
  invalidNext: 'Check the letters and the 9 digits of this code; the others were looked up.',
  orderTitle: 'No code? Find your order',
  orderLabel: 'Order number',
  cepLabel: 'Delivery CEP (postal code)',
  orderSubmit: 'Find order',
  orderEmpty: 'Enter the order number and the delivery CEP.',
  cepInvalid: 'A CEP has 8 digits (e.g. 01310-100).',
  orderNotFound: 'We found no order with this number and CEP. Check both and try again.',
  order: (id) => `Order ${id}`,
};

const es: TrackingMessages = {
  label: 'Código de seguimiento',
  hint: 'Uno o más códigos, separados por coma o espacio.',
  submit: 'Rastrear',
  loading: 'Consultando…',
  invalid: (codes) => `Código inválido: ${codes}. Revisa las letras y los 9 dígitos.`,
  empty: 'Escribe un código de seguimiento.',
  status: {
    posted: {
      badge: 'Despachado',
      next: () => 'Nada que hacer ahora: el paquete ya está con el transportista.',
    },
    'in-transit': { badge: 'En tránsito', next: () => 'Nada que hacer ahora: el paquete está en camino.' },
    'out-for-delivery': {
      badge: 'En reparto',
      next: () => 'Llega hoy: que haya alguien en la dirección para recibirlo.',
    },
    'awaiting-pickup': {
      badge: 'Esperando retiro',
      next: (where) =>
        where
          ? `Retíralo con un documento con foto en: ${where}.`
          : 'Retíralo en la unidad indicada, con un documento con foto.',
    },
    delivered: { badge: 'Entregado', next: () => '¿No lo recibiste? Habla con la tienda.' },
    returned: {
      badge: 'Devuelto al remitente',
      next: () => 'El paquete volvió a la tienda: habla con ella para un nuevo envío o un reembolso.',
    },
    problem: {
      badge: 'Problema en la entrega',
      next: () => 'No se pudo entregar: revisa la dirección con la tienda; puede haber un nuevo intento.',
    },
    'no-events': {
      badge: 'Esperando despacho',
      next: () => 'La tienda creó el envío, pero el paquete aún no fue despachado. Vuelve más tarde.',
    },
    'not-found': {
      badge: 'No encontrado',
      next: () => 'Revisa el código. Si el envío es reciente, inténtalo más tarde.',
    },
  },
  at: 'a las',
  yearFirst: false,
  since: (when) => `Desde ${when}.`,
  promise: (dates) => `Entrega prevista: ${dates}`,
  locale: 'es',
  stale: 'No fue posible actualizar ahora; esta es la última información conocida.',
  unavailable: 'Seguimiento no disponible en este momento. Inténtalo de nuevo en un momento.',
  limited: 'Demasiadas consultas seguidas. Espera un poco e inténtalo de nuevo.',
  retry: 'Intentar de nuevo',
  timeline: 'Historial',
  details: 'Detalles del transportista',
  results: (n) => (n === 1 ? '1 objeto consultado' : `${n} objetos consultados`),
  invalidBadge: 'Código inválido',
  invalidNext: 'Revisa las letras y los 9 dígitos de este código; los demás fueron consultados.',
  orderTitle: '¿No tienes el código? Busca tu pedido',
  orderLabel: 'Número de pedido',
  cepLabel: 'CEP de entrega (código postal)',
  orderSubmit: 'Buscar pedido',
  orderEmpty: 'Escribe el número de pedido y el CEP de entrega.',
  cepInvalid: 'El CEP tiene 8 dígitos (ej.: 01310-100).',
  orderNotFound: 'No encontramos un pedido con ese número y CEP. Revisa ambos e inténtalo de nuevo.',
  order: (id) => `Pedido ${id}`,
};

/** The tracking element's words, all in this one place: pt-BR by default, `lang="en"` or `lang="es"`. */
export function trackingMessagesFor(lang: string | null | undefined): TrackingMessages {
  return { 'pt-BR': pt, en, es }[localeOf(lang) ?? 'pt-BR'];
}
