import type { DeskLang } from './messages.ts';

/**
 * The desk's words for orders (the orders page, the print's report page, the CSV import), pt-BR first, `en` and `es`:
 * beside `messages.ts`, read the same way by the pages and the script.
 */
const pt = {
  navOrders: 'Pedidos',
  ordersTitle: 'Pedidos para enviar',
  ordersIntro:
    'Os pedidos pagos das lojas chegam aqui sozinhos, com itens, endereço e serviço escolhido. Selecione, emita as etiquetas de uma vez e imprima.',
  reportTitle: 'Etiquetas que não foram impressas',
  reportIntro: (printed: number, missing: number) =>
    `${printed === 1 ? '1 etiqueta impressa' : `${printed} etiquetas impressas`}; ${missing === 1 ? '1 não pôde ser impressa' : `${missing} não puderam ser impressas`}:`,
  noOrder: 'sem pedido',
  whyNotCreated: (state: string) => `a etiqueta não foi criada (estado: ${state})`,
  whyMissing: 'esta etiqueta não existe',
  whyUnreadable: 'o PDF da plataforma não pôde ser lido',
  whyNotReady: (status: string) => `o PDF ainda não está pronto${status ? ` (${status})` : ''}`,
  whyNoAnswer: 'a plataforma não respondeu ao pedir o PDF; tente de novo',
};

export type OrderMessages = typeof pt;

const en: OrderMessages = {
  navOrders: 'Orders',
  ordersTitle: 'Orders to ship',
  ordersIntro:
    "The stores' paid orders arrive here by themselves, with items, address and chosen service. Select, issue the labels at once and print.",
  reportTitle: 'Labels that were not printed',
  reportIntro: (printed: number, missing: number) =>
    `${printed === 1 ? '1 label printed' : `${printed} labels printed`}; ${missing === 1 ? '1 could not be printed' : `${missing} could not be printed`}:`,
  noOrder: 'no order',
  whyNotCreated: (state: string) => `the label was not created (state: ${state})`,
  whyMissing: 'no such label',
  whyUnreadable: "the platform's PDF could not be read",
  whyNotReady: (status: string) => `the PDF is not ready yet${status ? ` (${status})` : ''}`,
  whyNoAnswer: 'the platform did not answer when asked for the PDF; try again',
};

const es: OrderMessages = {
  navOrders: 'Pedidos',
  ordersTitle: 'Pedidos para enviar',
  ordersIntro:
    'Los pedidos pagados de las tiendas llegan aquí solos, con ítems, dirección y servicio elegido. Seleccione, emita las etiquetas de una vez e imprima.',
  reportTitle: 'Etiquetas que no se imprimieron',
  reportIntro: (printed: number, missing: number) =>
    `${printed === 1 ? '1 etiqueta impresa' : `${printed} etiquetas impresas`}; ${missing === 1 ? '1 no se pudo imprimir' : `${missing} no se pudieron imprimir`}:`,
  noOrder: 'sin pedido',
  whyNotCreated: (state: string) => `la etiqueta no se creó (estado: ${state})`,
  whyMissing: 'esta etiqueta no existe',
  whyUnreadable: 'no se pudo leer el PDF de la plataforma',
  whyNotReady: (status: string) => `el PDF aún no está listo${status ? ` (${status})` : ''}`,
  whyNoAnswer: 'la plataforma no respondió al pedir el PDF; intente de nuevo',
};

export const ORDER_MESSAGES: Record<DeskLang, OrderMessages> = { 'pt-BR': pt, en, es };
