import type { Locale } from '../../shared/locale.ts';
import type { ParcelStatus } from '../../shared/parcel-status.ts';
import { STALLED_WORDS } from '../../shared/parcel-story.ts';

/** What a shopper's e-mail says, per language: the one home of these words (email.ts lays them out). */
export interface EmailTexts {
  /** The headline and subject: where the order is. `order` is "pedido 1234" or the generic word. */
  headline: Record<ParcelStatus, (order: string) => string>;
  stalled: (order: string) => string;
  /** One line saying what to do next; `where` is the unit the carrier names. */
  next: Record<ParcelStatus, (where?: string) => string>;
  stalledNext: string;
  /** A promise about to be broken: the headline, and what the shopper is told (`dates`: "até qua., 26/11"). */
  atRisk: (order: string) => string;
  /** A parcel past its promise (shared/parcel-story.ts): the headline; what to do is `LATE_WORDS`' `next`. */
  late: (order: string) => string;
  atRiskNext: (dates: string) => string;
  /** The reminder to pick up a parcel before it goes back (`date`: "sex., 04/12"). */
  pickupReminder: (order: string) => string;
  /** Where and until when to pick a waiting parcel up (`where`: the unit the carrier names). */
  pickupBy: (date: string, where?: string) => string;
  /** The promise a parcel was sold with, under the status (`dates`: "entre 3 e 5/12"). */
  promised: string;
  order: (id: string) => string;
  anOrder: string;
  greeting: (name?: string) => string;
  lastEvent: string;
  code: string;
  button: string;
  linkNote: string;
  footer: (store: string) => string;
  theStore: string;
}

const pt: EmailTexts = {
  headline: {
    posted: (o) => `Seu ${o} foi postado`,
    'in-transit': (o) => `Seu ${o} está a caminho`,
    'out-for-delivery': (o) => `Seu ${o} saiu para entrega`,
    'awaiting-pickup': (o) => `Seu ${o} aguarda retirada`,
    delivered: (o) => `Seu ${o} foi entregue`,
    returned: (o) => `Seu ${o} voltou para a loja`,
    problem: (o) => `A entrega do seu ${o} não foi feita`,
    'no-events': (o) => `Seu ${o} aguarda postagem`,
    'not-found': (o) => `Seu ${o} ainda não aparece nos Correios`,
  },
  stalled: (o) => `Seu ${o} está sem novidades há alguns dias`,
  next: {
    posted: () => 'Nada a fazer agora: o objeto já está com os Correios.',
    'in-transit': () => 'Nada a fazer agora: o objeto está a caminho.',
    'out-for-delivery': () => 'Chega hoje: tenha alguém no endereço para receber.',
    'awaiting-pickup': (where) =>
      `${where ? `Retire com um documento com foto em: ${where}.` : 'Retire na unidade dos Correios indicada, com um documento com foto.'} Se não for retirado em poucos dias, volta para a loja.`,
    delivered: () => 'Não recebeu? Fale com a loja.',
    returned: () => 'Fale com a loja para combinar um novo envio ou o reembolso.',
    problem: () => 'Confira o endereço com a loja; pode haver nova tentativa.',
    'no-events': () => 'A loja criou o envio; o objeto ainda não foi postado.',
    'not-found': () => 'Tente de novo mais tarde.',
  },
  stalledNext: STALLED_WORDS['pt-BR'].next,
  atRisk: (o) => `Seu ${o} pode atrasar`,
  late: (o) => `Seu ${o} está atrasado`,
  atRiskNext: (dates) =>
    `A previsão era ${dates}, e o objeto ainda está a caminho. A loja já foi avisada e está acompanhando com os Correios.`,
  pickupReminder: (o) => `Retire seu ${o}: faltam poucos dias`,
  pickupBy: (date, where) =>
    `Retire ${where ? `em ${where}` : 'na unidade dos Correios indicada'} até ${date}, com um documento com foto; depois disso ele volta para a loja.`,
  promised: 'Previsão de entrega',
  order: (id) => `pedido ${id}`,
  anOrder: 'pedido',
  greeting: (name) => (name ? `Olá, ${name},` : 'Olá,'),
  lastEvent: 'Última informação dos Correios',
  code: 'Código de rastreamento',
  button: 'Acompanhar o pedido',
  linkNote: 'Ou copie este endereço no navegador:',
  footer: (store) => `Você recebe este e-mail porque comprou em ${store}.`,
  theStore: 'nossa loja',
};

const en: EmailTexts = {
  headline: {
    posted: (o) => `Your ${o} has been posted`,
    'in-transit': (o) => `Your ${o} is on its way`,
    'out-for-delivery': (o) => `Your ${o} is out for delivery`,
    'awaiting-pickup': (o) => `Your ${o} is waiting for pickup`,
    delivered: (o) => `Your ${o} has been delivered`,
    returned: (o) => `Your ${o} went back to the store`,
    problem: (o) => `Your ${o} could not be delivered`,
    'no-events': (o) => `Your ${o} is waiting to be posted`,
    'not-found': (o) => `Your ${o} is not with the carrier yet`,
  },
  stalled: (o) => `No news of your ${o} for a few days`,
  next: {
    posted: () => 'Nothing to do now: the carrier has the parcel.',
    'in-transit': () => 'Nothing to do now: the parcel is on its way.',
    'out-for-delivery': () => 'Arriving today: have someone at the address to receive it.',
    'awaiting-pickup': (where) =>
      `${where ? `Pick it up with a photo ID at: ${where}.` : 'Pick it up at the carrier’s unit with a photo ID.'} If nobody picks it up within a few days, it goes back to the store.`,
    delivered: () => 'Didn’t get it? Contact the store.',
    returned: () => 'Contact the store to arrange a new shipment or a refund.',
    problem: () => 'Check the address with the store; there may be another attempt.',
    'no-events': () => 'The store created the shipment; the parcel has not been posted yet.',
    'not-found': () => 'Try again later.',
  },
  stalledNext: STALLED_WORDS.en.next,
  atRisk: (o) => `Your ${o} may be late`,
  late: (o) => `Your ${o} is late`,
  atRiskNext: (dates) =>
    `It was expected ${dates} and is still on its way. The store has been told and is following it up with the carrier.`,
  pickupReminder: (o) => `Pick up your ${o}: only a few days left`,
  pickupBy: (date, where) =>
    `Pick it up ${where ? `at ${where}` : 'at the carrier’s unit'} by ${date} with a photo ID; after that it goes back to the store.`,
  promised: 'Expected delivery',
  order: (id) => `order ${id}`,
  anOrder: 'order',
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  lastEvent: 'Latest from the carrier',
  code: 'Tracking code',
  button: 'Track your order',
  linkNote: 'Or copy this address into your browser:',
  footer: (store) => `You get this e-mail because you bought from ${store}.`,
  theStore: 'our store',
};

const es: EmailTexts = {
  headline: {
    posted: (o) => `Tu ${o} fue despachado`,
    'in-transit': (o) => `Tu ${o} está en camino`,
    'out-for-delivery': (o) => `Tu ${o} salió para entrega`,
    'awaiting-pickup': (o) => `Tu ${o} espera retiro`,
    delivered: (o) => `Tu ${o} fue entregado`,
    returned: (o) => `Tu ${o} volvió a la tienda`,
    problem: (o) => `No se pudo entregar tu ${o}`,
    'no-events': (o) => `Tu ${o} espera ser despachado`,
    'not-found': (o) => `Tu ${o} aún no aparece en el transportista`,
  },
  stalled: (o) => `Tu ${o} lleva unos días sin novedades`,
  next: {
    posted: () => 'Nada que hacer ahora: el paquete ya está con el transportista.',
    'in-transit': () => 'Nada que hacer ahora: el paquete está en camino.',
    'out-for-delivery': () => 'Llega hoy: que haya alguien en la dirección para recibirlo.',
    'awaiting-pickup': (where) =>
      `${where ? `Retíralo con un documento con foto en: ${where}.` : 'Retíralo en la unidad indicada, con un documento con foto.'} Si no se retira en pocos días, vuelve a la tienda.`,
    delivered: () => '¿No lo recibiste? Habla con la tienda.',
    returned: () => 'Habla con la tienda para un nuevo envío o un reembolso.',
    problem: () => 'Revisa la dirección con la tienda; puede haber un nuevo intento.',
    'no-events': () => 'La tienda creó el envío; el paquete aún no fue despachado.',
    'not-found': () => 'Inténtalo más tarde.',
  },
  stalledNext: STALLED_WORDS.es.next,
  atRisk: (o) => `Tu ${o} puede retrasarse`,
  late: (o) => `Tu ${o} está atrasado`,
  atRiskNext: (dates) =>
    `Estaba previsto ${dates} y todavía está en camino. La tienda ya fue avisada y lo sigue con el transportista.`,
  pickupReminder: (o) => `Retira tu ${o}: quedan pocos días`,
  pickupBy: (date, where) =>
    `Retíralo ${where ? `en ${where}` : 'en la unidad indicada'} hasta el ${date} con un documento con foto; después vuelve a la tienda.`,
  promised: 'Entrega prevista',
  order: (id) => `pedido ${id}`,
  anOrder: 'pedido',
  greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
  lastEvent: 'Última información del transportista',
  code: 'Código de seguimiento',
  button: 'Seguir el pedido',
  linkNote: 'O copia esta dirección en el navegador:',
  footer: (store) => `Recibes este correo porque compraste en ${store}.`,
  theStore: 'nuestra tienda',
};

export const EMAIL_TEXTS: Record<Locale, EmailTexts> = { 'pt-BR': pt, en, es };
