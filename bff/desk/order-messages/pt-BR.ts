import type { CsvProblem } from '../../../shared/orders/csv-problem.ts';
import { CSV_COLUMNS } from '../../../shared/orders/order.ts';
/** The desk's words for orders in Brazilian Portuguese: the type every other language follows (`../order-messages.ts`). */
export const ORDER_WORDS_PT_BR = {
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
  filterLabel: 'Mostrar',
  toShip: 'Para enviar',
  allOrders: 'Todos',
  orderState: {
    new: 'Novo',
    partly_labelled: 'Parte etiquetada',
    labelled: 'Etiquetado',
    posted: 'Postado',
    cancelled: 'Cancelado na loja',
    not_shipped: 'Retirada na loja (não enviar)',
  } as Record<string, string>,
  source: { shopify: 'Shopify', nuvemshop: 'Nuvemshop', csv: 'Planilha', desk: 'Painel' } as Record<
    string,
    string
  >,
  colOrder: 'Pedido',
  colRecipient: 'Destinatário',
  colItems: 'Itens',
  colService: 'Serviço',
  colVolumes: 'Volumes',
  colPrice: 'Frete (a loja paga)',
  colState: 'Estado',
  colLabels: 'Etiquetas e loja',
  caption: (n: number) => (n === 1 ? '1 pedido' : `${n} pedidos`),
  selectOrder: (order: string) => `Selecionar o pedido ${order}`,
  selectAll: 'Selecionar todos os pedidos prontos',
  issueSelected: 'Emitir etiquetas dos selecionados',
  issueCount: (n: number) => (n === 1 ? 'Emitir etiquetas de 1 pedido' : `Emitir etiquetas de ${n} pedidos`),
  issueNone: 'Selecione ao menos um pedido pronto.',
  issuing: 'Emitindo as etiquetas…',
  issuedSummary: (labels: number, refused: number) =>
    `${labels === 1 ? '1 etiqueta pronta' : `${labels} etiquetas prontas`}${refused > 0 ? `; ${refused === 1 ? '1 pedido não emitido' : `${refused} pedidos não emitidos`} (veja abaixo)` : ''}.`,
  printToday: (n: number) => (n === 1 ? 'Imprimir a etiqueta de hoje' : `Imprimir as ${n} etiquetas de hoje`),
  printIssued: (n: number) => (n === 1 ? 'Imprimir 1 etiqueta' : `Imprimir as ${n} etiquetas`),
  printHelp: 'Um só PDF, cada etiqueta marcada com o pedido e o volume (abre em nova aba).',
  refresh: 'Atualizar a lista',
  orderRefused: (order: string, why: string) => `${order}: não emitido — ${why}`,
  volumeRefused: (order: string, volume: number, why: string) => `${order}, volume ${volume}: ${why}`,
  refusedWhy: {
    needs_review: 'revise o pedido antes',
    no_weight: 'um item não tem peso (salve o peso do produto)',
    no_boxes_configured: 'nenhuma caixa configurada (BFF_BOXES)',
    item_does_not_fit: 'um item não cabe em nenhuma caixa',
    not_found: 'pedido não encontrado',
    order_cancelled: 'a loja cancelou o pedido',
    order_not_shipped: 'retirada na loja: não se envia',
  } as Record<string, string>,
  review: 'Revisar',
  reviewLabel: (order: string) => `Revisar o pedido ${order}`,
  reason: {
    number_not_found: 'número não separado da rua',
    missing: 'vazio',
    city_mismatch: 'o CEP é de outra cidade',
    uf_mismatch: 'o CEP é de outra UF',
    cep_not_found: 'CEP não encontrado',
    unknown_service: 'serviço que a loja não mapeia',
    no_weight: 'sem peso',
    changed_after_label: 'a loja mudou o pedido depois da etiqueta',
    cancelled_after_label:
      'etiqueta emitida para um pedido cancelado — não poste. A plataforma não cancela etiquetas: guarde o pacote; se já foi postado, peça aos Correios a devolução ao remetente',
    out_of_bounds: 'fora do que a etiqueta aceita: corrija na loja ou emita à mão',
    malformed: 'mal formado',
  } as Record<string, string>,
  field: {
    'recipient.nome': 'nome',
    'recipient.endereco.cep': 'CEP',
    'recipient.endereco.logradouro': 'rua',
    'recipient.endereco.numero': 'número',
    'recipient.endereco.bairro': 'bairro',
    'recipient.endereco.cidade': 'cidade',
    'recipient.endereco.uf': 'UF',
    serviceId: 'serviço',
    order: 'pedido',
  } as Record<string, string>,
  planVolumes: (n: number) => (n === 1 ? '1 volume' : `${n} volumes`),
  noPlan: 'sem plano',
  tracking: {
    sent: 'Rastreio enviado à loja',
    pending: 'Enviando o rastreio à loja',
    retrying: 'Rastreio: nova tentativa em breve',
    failed: 'Rastreio não enviado à loja',
    waiting: 'Rastreio aguardando a loja',
    not_connected: 'Loja não conectada: o rastreio não volta',
  } as Record<string, string>,
  resend: 'Enviar de novo',
  noOrders: 'Nenhum pedido aqui.',
  senderLegend: 'Remetente das etiquetas',
  rememberSender: 'Lembrar este remetente neste navegador',
  importTitle: 'Importar pedidos (CSV)',
  importIntro:
    'Tray, Loja Integrada, VTEX, WooCommerce ou uma planilha: uma linha por item, as linhas do mesmo pedido juntas. Veja antes o que será criado.',
  fileLabel: 'Arquivo CSV',
  template: 'Baixar o modelo (cabeçalho)',
  preview: 'Pré-visualizar',
  importNow: 'Importar',
  previewSummary: (orders: number, refused: number) =>
    `${orders === 1 ? '1 pedido será criado' : `${orders} pedidos serão criados`}; ${refused === 1 ? '1 linha recusada' : `${refused} linhas recusadas`}.`,
  importedSummary: (orders: number, refused: number) =>
    `${orders === 1 ? '1 pedido importado' : `${orders} pedidos importados`}; ${refused === 1 ? '1 linha recusada' : `${refused} linhas recusadas`}.`,
  refusedLine: (line: number, reason: string) => `Linha ${line}: ${reason}`,
  /** Why the CSV import refused a line, in the desk's words (shared/orders/csv-problem.ts). */
  csvProblem: (p: CsvProblem): string => {
    switch (p.code) {
      case 'field_count':
        return `tem ${p.fields} campos; o cabeçalho tem ${p.expected}`;
      case 'empty':
        return `${p.column}: está vazio`;
      case 'quantity':
        return 'quantidade: deve ser um número inteiro de 1 a 999';
      case 'weight':
        return 'pesoGramas: deve ser em gramas inteiros, pelo menos 1';
      case 'money':
        return 'valor: deve ser em reais, ex.: 49,90';
      case 'uf':
        return 'uf: deve ter 2 letras';
      case 'cpf_cnpj':
        return 'cpfCnpj: deve ter 11 ou 14 dígitos';
      case 'differs':
        return `${p.column}: difere da linha ${p.firstLine}, a primeira do pedido (deixe vazio ou repita)`;
      case 'order_refused':
        return `o pedido ${p.orderId} foi recusado pelas outras linhas`;
      case 'exists':
        return `o pedido ${p.orderId} já existe`;
      case 'invalid':
        return 'um campo é longo demais ou inválido';
      case 'unknown_column':
        return `coluna desconhecida "${p.column}"; as colunas são ${CSV_COLUMNS.join(',')}`;
      case 'repeated_column':
        return `a coluna ${p.column} aparece duas vezes`;
      case 'missing_columns':
        return `${p.columns.length === 1 ? 'falta a coluna' : 'faltam as colunas'} ${p.columns.join(', ')}`;
      case 'unclosed_quote':
        return 'uma aspa abre um campo e nunca fecha';
      case 'too_many_lines':
        return `no máximo ${p.max} linhas por importação; divida o arquivo`;
    }
  },
  noFile: 'Escolha um arquivo CSV.',
  reviewTitle: (order: string) => `Revisar o pedido ${order}`,
  reviewIntro:
    'Corrija o que a loja mandou. Ao digitar o CEP, rua, bairro, cidade e UF vêm do serviço de CEP nos campos vazios.',
  asWritten: 'Como a loja escreveu',
  confirm: 'Manter a cidade e a UF mesmo que o CEP diga outras',
  save: 'Salvar',
  saved: 'Pedido salvo.',
  back: 'Voltar aos pedidos',
  orderNotFound: 'Este pedido não existe.',
  presetsTitle: 'Pesos e medidas dos produtos',
  presetsIntro:
    'Quando a loja não manda o peso ou as medidas de um produto, o painel usa os salvos aqui (pelo SKU, ou pelo nome); sem medidas, a menor caixa.',
  presetKey: 'SKU ou nome do produto',
  presetWeight: 'Peso de uma unidade (g)',
  presetLength: 'Comprimento (cm)',
  presetWidth: 'Largura (cm)',
  presetHeight: 'Altura (cm)',
  presetSave: 'Salvar produto',
  presetSaved: (key: string) => `${key} salvo.`,
  noPresets: 'Nenhum produto salvo ainda.',
};
