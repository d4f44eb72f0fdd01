import type { Locale } from '../../../../shared/locale.ts';

/** What the apps say, in the three languages of `shared/locale.ts` (the host's `locale` picks one). */
export interface AppMessages {
  quoteTitle: string;
  noQuote: (reason: string) => string;
  businessDays: (days: number) => string;
  free: string;
  /** The platform's price beside the shopper's (the store's shipping rules), and what the store keeps or pays. */
  platformPrice: (price: string, difference: string) => string;
  previewTitle: string;
  planTitle: string;
  box: (n: number, id: string) => string;
  units: (n: number) => string;
  parcel: (dimensions: string, grams: number) => string;
  weight: string;
  sender: string;
  recipient: string;
  items: string;
  declaredValue: string;
  price: string;
  noPrice: string;
  verdict: string;
  withinLimits: string;
  needsApproval: string;
  issueByClick: string;
  refused: (message: string) => string;
  existing: (state: string) => string;
  issue: string;
  issuing: string;
  issued: string;
  labelTitle: string;
  trackingCode: string;
  prepostagem: string;
  pdfReady: (kb: number) => string;
  pdfNotReady: string;
  downloadPdf: string;
  pending: string;
  notIssued: (message: string) => string;
  approvalsTitle: string;
  noApprovals: string;
  askedBy: (who: string) => string;
  approve: string;
  reject: string;
  approved: string;
  rejected: string;
  waiting: string;
  order: (id: string, volume: number) => string;
}

const PT: AppMessages = {
  quoteTitle: 'Opções de frete',
  noQuote: (reason) => `Sem cotação (${reason}). Não é frete grátis.`,
  businessDays: (days) => (days === 1 ? '1 dia útil' : `${days} dias úteis`),
  free: 'Frete grátis',
  platformPrice: (price, difference) => `Etiqueta: ${price} (diferença por pedido: ${difference})`,
  previewTitle: 'Prévia da etiqueta',
  planTitle: 'Plano de embalagem',
  box: (n, id) => `Volume ${n}: caixa ${id}`,
  units: (n) => (n === 1 ? '1 unidade' : `${n} unidades`),
  parcel: (dimensions, grams) => `Pacote de ${dimensions}, ${grams} g`,
  weight: 'Peso',
  sender: 'Remetente',
  recipient: 'Destinatário',
  items: 'Conteúdo declarado',
  declaredValue: 'Valor declarado',
  price: 'Preço',
  noPrice: 'sem cotação',
  verdict: 'Política',
  withinLimits: 'Dentro dos limites do agente',
  needsApproval: 'Precisa da aprovação do lojista',
  issueByClick: 'Só é emitida com o seu clique',
  refused: (message) => `Recusada: ${message}`,
  existing: (state) => `Esta etiqueta já existe (${state})`,
  issue: 'Emitir etiqueta',
  issuing: 'Emitindo…',
  issued: 'Etiqueta emitida',
  labelTitle: 'Etiqueta',
  trackingCode: 'Código de rastreio',
  prepostagem: 'Pré-postagem',
  pdfReady: (kb) => `PDF pronto (${kb} KB)`,
  pdfNotReady: 'O PDF ainda não está pronto.',
  downloadPdf: 'Baixar PDF',
  pending: 'Aguardando a aprovação do lojista; nada foi enviado.',
  notIssued: (message) => `Nada foi emitido: ${message}`,
  approvalsTitle: 'Aprovações pendentes',
  noApprovals: 'Nenhuma etiqueta aguarda aprovação.',
  askedBy: (who) => `Pedida por ${who}`,
  approve: 'Aprovar',
  reject: 'Rejeitar',
  approved: 'Aprovada',
  rejected: 'Rejeitada: nada foi enviado.',
  waiting: 'Aguardando os dados da ferramenta…',
  order: (id, volume) => `Pedido ${id}, volume ${volume}`,
};

const EN: AppMessages = {
  quoteTitle: 'Shipping options',
  noQuote: (reason) => `No quote (${reason}). This is not free shipping.`,
  businessDays: (days) => (days === 1 ? '1 business day' : `${days} business days`),
  free: 'Free shipping',
  platformPrice: (price, difference) => `Label: ${price} (difference per order: ${difference})`,
  previewTitle: 'Label preview',
  planTitle: 'Packing plan',
  box: (n, id) => `Package ${n}: box ${id}`,
  units: (n) => (n === 1 ? '1 unit' : `${n} units`),
  parcel: (dimensions, grams) => `Parcel of ${dimensions}, ${grams} g`,
  weight: 'Weight',
  sender: 'Sender',
  recipient: 'Recipient',
  items: 'Declared contents',
  declaredValue: 'Declared value',
  price: 'Price',
  noPrice: 'no quote',
  verdict: 'Policy',
  withinLimits: "Within the agent's limits",
  needsApproval: "Needs the merchant's approval",
  issueByClick: 'Issued only by your click',
  refused: (message) => `Refused: ${message}`,
  existing: (state) => `This label already exists (${state})`,
  issue: 'Issue label',
  issuing: 'Issuing…',
  issued: 'Label issued',
  labelTitle: 'Label',
  trackingCode: 'Tracking code',
  prepostagem: 'Pre-posting',
  pdfReady: (kb) => `PDF ready (${kb} KB)`,
  pdfNotReady: 'The PDF is not ready yet.',
  downloadPdf: 'Download PDF',
  pending: "Waiting for the merchant's approval; nothing was sent.",
  notIssued: (message) => `Nothing was issued: ${message}`,
  approvalsTitle: 'Pending approvals',
  noApprovals: 'No label is waiting for approval.',
  askedBy: (who) => `Asked by ${who}`,
  approve: 'Approve',
  reject: 'Reject',
  approved: 'Approved',
  rejected: 'Rejected: nothing was sent.',
  waiting: "Waiting for the tool's data…",
  order: (id, volume) => `Order ${id}, package ${volume}`,
};

const ES: AppMessages = {
  quoteTitle: 'Opciones de envío',
  noQuote: (reason) => `Sin cotización (${reason}). No es envío gratis.`,
  businessDays: (days) => (days === 1 ? '1 día hábil' : `${days} días hábiles`),
  free: 'Envío gratis',
  platformPrice: (price, difference) => `Etiqueta: ${price} (diferencia por pedido: ${difference})`,
  previewTitle: 'Vista previa de la etiqueta',
  planTitle: 'Plan de embalaje',
  box: (n, id) => `Bulto ${n}: caja ${id}`,
  units: (n) => (n === 1 ? '1 unidad' : `${n} unidades`),
  parcel: (dimensions, grams) => `Paquete de ${dimensions}, ${grams} g`,
  weight: 'Peso',
  sender: 'Remitente',
  recipient: 'Destinatario',
  items: 'Contenido declarado',
  declaredValue: 'Valor declarado',
  price: 'Precio',
  noPrice: 'sin cotización',
  verdict: 'Política',
  withinLimits: 'Dentro de los límites del agente',
  needsApproval: 'Necesita la aprobación del comerciante',
  issueByClick: 'Solo se emite con su clic',
  refused: (message) => `Rechazada: ${message}`,
  existing: (state) => `Esta etiqueta ya existe (${state})`,
  issue: 'Emitir etiqueta',
  issuing: 'Emitiendo…',
  issued: 'Etiqueta emitida',
  labelTitle: 'Etiqueta',
  trackingCode: 'Código de seguimiento',
  prepostagem: 'Prepostaje',
  pdfReady: (kb) => `PDF listo (${kb} KB)`,
  pdfNotReady: 'El PDF aún no está listo.',
  downloadPdf: 'Descargar PDF',
  pending: 'Esperando la aprobación del comerciante; no se envió nada.',
  notIssued: (message) => `No se emitió nada: ${message}`,
  approvalsTitle: 'Aprobaciones pendientes',
  noApprovals: 'Ninguna etiqueta espera aprobación.',
  askedBy: (who) => `Pedida por ${who}`,
  approve: 'Aprobar',
  reject: 'Rechazar',
  approved: 'Aprobada',
  rejected: 'Rechazada: no se envió nada.',
  waiting: 'Esperando los datos de la herramienta…',
  order: (id, volume) => `Pedido ${id}, bulto ${volume}`,
};

export const APP_MESSAGES: Record<Locale, AppMessages> = { 'pt-BR': PT, en: EN, es: ES };
