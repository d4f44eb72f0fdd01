import type { CsvProblem } from '../../../shared/orders/csv-problem.ts';
import { CSV_COLUMNS } from '../../../shared/orders/order.ts';
import type { ORDER_WORDS_PT_BR } from './pt-BR.ts';

/** The desk's words for orders in Spanish (every key of `ORDER_WORDS_PT_BR`, checked by the type). */
export const ORDER_WORDS_ES: typeof ORDER_WORDS_PT_BR = {
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
  filterLabel: 'Mostrar',
  toShip: 'Para enviar',
  allOrders: 'Todos',
  orderState: {
    new: 'Nuevo',
    partly_labelled: 'Parte etiquetada',
    labelled: 'Etiquetado',
    posted: 'Despachado',
    cancelled: 'Cancelado en la tienda',
    not_shipped: 'Retiro en tienda (no se envía)',
  },
  source: { shopify: 'Shopify', nuvemshop: 'Nuvemshop', csv: 'Planilla', desk: 'Panel' },
  colOrder: 'Pedido',
  colRecipient: 'Destinatario',
  colItems: 'Ítems',
  colService: 'Servicio',
  colVolumes: 'Bultos',
  colPrice: 'Envío (paga la tienda)',
  colState: 'Estado',
  colLabels: 'Etiquetas y tienda',
  caption: (n: number) => (n === 1 ? '1 pedido' : `${n} pedidos`),
  selectOrder: (order: string) => `Seleccionar el pedido ${order}`,
  selectAll: 'Seleccionar todos los pedidos listos',
  issueSelected: 'Emitir etiquetas de los seleccionados',
  issueCount: (n: number) => (n === 1 ? 'Emitir etiquetas de 1 pedido' : `Emitir etiquetas de ${n} pedidos`),
  issueNone: 'Seleccione al menos un pedido listo.',
  issuing: 'Emitiendo las etiquetas…',
  issuedSummary: (labels: number, refused: number) =>
    `${labels === 1 ? '1 etiqueta lista' : `${labels} etiquetas listas`}${refused > 0 ? `; ${refused === 1 ? '1 pedido no emitido' : `${refused} pedidos no emitidos`} (vea abajo)` : ''}.`,
  printToday: (n: number) => (n === 1 ? 'Imprimir la etiqueta de hoy' : `Imprimir las ${n} etiquetas de hoy`),
  printIssued: (n: number) => (n === 1 ? 'Imprimir 1 etiqueta' : `Imprimir las ${n} etiquetas`),
  printHelp: 'Un solo PDF, cada etiqueta marcada con el pedido y el bulto (se abre en otra pestaña).',
  refresh: 'Actualizar la lista',
  orderRefused: (order: string, why: string) => `${order}: no emitido — ${why}`,
  volumeRefused: (order: string, volume: number, why: string) => `${order}, bulto ${volume}: ${why}`,
  refusedWhy: {
    needs_review: 'revise el pedido antes',
    no_weight: 'un ítem no tiene peso (guarde el peso del producto)',
    no_boxes_configured: 'ninguna caja configurada (BFF_BOXES)',
    item_does_not_fit: 'un ítem no cabe en ninguna caja',
    not_found: 'pedido no encontrado',
    order_cancelled: 'la tienda canceló el pedido',
    order_not_shipped: 'retiro en tienda: no se envía',
  },
  review: 'Revisar',
  reviewLabel: (order: string) => `Revisar el pedido ${order}`,
  reason: {
    number_not_found: 'número no separado de la calle',
    missing: 'vacío',
    city_mismatch: 'el CEP es de otra ciudad',
    uf_mismatch: 'el CEP es de otro estado',
    cep_not_found: 'CEP no encontrado',
    unknown_service: 'un servicio que la tienda no mapea',
    no_weight: 'sin peso',
    changed_after_label: 'la tienda cambió el pedido después de la etiqueta',
    cancelled_after_label:
      'etiqueta emitida para un pedido cancelado — no la despache. La plataforma no cancela etiquetas: guarde el paquete; si ya fue despachado, pida a Correios la devolución al remitente',
    out_of_bounds: 'más de lo que acepta la etiqueta: corríjalo en la tienda o emítala a mano',
    malformed: 'mal formado',
  },
  field: {
    'recipient.nome': 'nombre',
    'recipient.endereco.cep': 'CEP',
    'recipient.endereco.logradouro': 'calle',
    'recipient.endereco.numero': 'número',
    'recipient.endereco.bairro': 'barrio',
    'recipient.endereco.cidade': 'ciudad',
    'recipient.endereco.uf': 'UF',
    serviceId: 'servicio',
    order: 'pedido',
  },
  planVolumes: (n: number) => (n === 1 ? '1 bulto' : `${n} bultos`),
  noPlan: 'sin plan',
  tracking: {
    sent: 'Seguimiento enviado a la tienda',
    pending: 'Enviando el seguimiento a la tienda',
    retrying: 'Seguimiento: nuevo intento en breve',
    failed: 'Seguimiento no enviado a la tienda',
    waiting: 'Seguimiento esperando a la tienda',
    not_connected: 'Tienda no conectada: el seguimiento no vuelve',
  },
  resend: 'Enviar de nuevo',
  noOrders: 'Ningún pedido aquí.',
  senderLegend: 'Remitente de las etiquetas',
  rememberSender: 'Recordar este remitente en este navegador',
  importTitle: 'Importar pedidos (CSV)',
  importIntro:
    'Tray, Loja Integrada, VTEX, WooCommerce o una planilla: una línea por ítem, las líneas del mismo pedido juntas. Vea antes lo que se creará.',
  fileLabel: 'Archivo CSV',
  template: 'Descargar el modelo (encabezado)',
  preview: 'Previsualizar',
  importNow: 'Importar',
  previewSummary: (orders: number, refused: number) =>
    `${orders === 1 ? 'se creará 1 pedido' : `se crearán ${orders} pedidos`}; ${refused === 1 ? '1 línea rechazada' : `${refused} líneas rechazadas`}.`,
  importedSummary: (orders: number, refused: number) =>
    `${orders === 1 ? '1 pedido importado' : `${orders} pedidos importados`}; ${refused === 1 ? '1 línea rechazada' : `${refused} líneas rechazadas`}.`,
  refusedLine: (line: number, reason: string) => `Línea ${line}: ${reason}`,
  csvProblem: (p: CsvProblem): string => {
    switch (p.code) {
      case 'field_count':
        return `tiene ${p.fields} campos; el encabezado tiene ${p.expected}`;
      case 'empty':
        return `${p.column}: está vacío`;
      case 'quantity':
        return 'quantidade: debe ser un número entero de 1 a 999';
      case 'weight':
        return 'pesoGramas: debe ser en gramos enteros, al menos 1';
      case 'money':
        return 'valor: debe ser en reales, ej.: 49,90';
      case 'uf':
        return 'uf: debe tener 2 letras';
      case 'cpf_cnpj':
        return 'cpfCnpj: debe tener 11 o 14 dígitos';
      case 'differs':
        return `${p.column}: difiere de la línea ${p.firstLine}, la primera del pedido (déjelo vacío o repítalo)`;
      case 'order_refused':
        return `el pedido ${p.orderId} fue rechazado por sus otras líneas`;
      case 'exists':
        return `el pedido ${p.orderId} ya existe`;
      case 'invalid':
        return 'un campo es demasiado largo o no es válido';
      case 'unknown_column':
        return `columna desconocida "${p.column}"; las columnas son ${CSV_COLUMNS.join(',')}`;
      case 'repeated_column':
        return `la columna ${p.column} aparece dos veces`;
      case 'missing_columns':
        return `${p.columns.length === 1 ? 'falta la columna' : 'faltan las columnas'} ${p.columns.join(', ')}`;
      case 'unclosed_quote':
        return 'una comilla abre un campo y nunca se cierra';
      case 'too_many_lines':
        return `como máximo ${p.max} líneas por importación; divida el archivo`;
    }
  },
  noFile: 'Elija un archivo CSV.',
  reviewTitle: (order: string) => `Revisar el pedido ${order}`,
  reviewIntro:
    'Corrija lo que envió la tienda. Al escribir el CEP, calle, barrio, ciudad y UF vienen del servicio de CEP en los campos vacíos.',
  asWritten: 'Como lo escribió la tienda',
  confirm: 'Mantener la ciudad y la UF aunque el CEP diga otras',
  save: 'Guardar',
  saved: 'Pedido guardado.',
  back: 'Volver a los pedidos',
  orderNotFound: 'Este pedido no existe.',
  presetsTitle: 'Pesos y medidas de los productos',
  presetsIntro:
    'Cuando la tienda no envía el peso o las medidas de un producto, el panel usa los guardados aquí (por SKU, o por nombre); sin medidas, la caja más chica.',
  presetKey: 'SKU o nombre del producto',
  presetWeight: 'Peso de una unidad (g)',
  presetLength: 'Largo (cm)',
  presetWidth: 'Ancho (cm)',
  presetHeight: 'Alto (cm)',
  presetSave: 'Guardar producto',
  presetSaved: (key: string) => `${key} guardado.`,
  noPresets: 'Ningún producto guardado aún.',
};
