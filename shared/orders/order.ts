import * as z from 'zod/mini';

/**
 * An order to ship, as the desk and agents see it (docs/orders.md): a store's paid order (Shopify, Nuvemshop), a line
 * of the CSV import, or one typed on the desk. Its recipient is a spec 2.5 party whose fields may be empty where the
 * platform's data could not be split as Correios needs it; each such field is named in `needsReview`, never guessed.
 */
export const ORDER_SOURCES = ['shopify', 'nuvemshop', 'csv', 'desk'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

/**
 * Where an order stands, from the label ledger: `new` (no label), `partly_labelled` (some volumes), `labelled` (every
 * planned volume has a label), `posted` (the carrier has every parcel); and from the store: `cancelled` (cancelled,
 * refunded or voided there, or nothing left to ship), `not_shipped` (no shipping address: a store pickup). The last
 * two are never labelled.
 */
export const ORDER_STATES = [
  'new',
  'partly_labelled',
  'labelled',
  'posted',
  'cancelled',
  'not_shipped',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Why a field needs the operator: the data was there but could not be split or checked without guessing. */
export const REVIEW_REASONS = [
  /** No street number could be told apart in the platform's address line. */
  'number_not_found',
  /** The field is empty in the order. */
  'missing',
  /** The CEP's city (from the CEP service) is not the order's. */
  'city_mismatch',
  /** The CEP's state (from the CEP service, or the CEP→UF table) is not the order's. */
  'uf_mismatch',
  /** No CEP service knows the CEP. */
  'cep_not_found',
  /** The order's service is not one the store maps to a contract code (`BFF_SERVICE_CODES`). */
  'unknown_service',
  /** An item has no weight (platform, preset): the operator weighs it. */
  'no_weight',
  /** The store changed the order after its first label: the labels are of the old order (`detail` says what). */
  'changed_after_label',
  /** The store cancelled the order after its first label: the parcel must not be posted. */
  'cancelled_after_label',
  /** A value the kit cannot put on a label as sent (too long, too many lines, out of range): `detail` says what. */
  'out_of_bounds',
  /** The field is there but is not what it should be (a CEP that is not 8 digits): `detail` is what came. */
  'malformed',
] as const;

export const ReviewSchema = /* @__PURE__ */ z.strictObject({
  /** The field's path, as in a label request (`recipient.endereco.numero`, `items[1].weightGrams`, `serviceId`). */
  field: z.string(),
  reason: z.enum(REVIEW_REASONS),
  /** What the order said, when it helps the operator (the platform's address line, the CEP's city). */
  detail: z.optional(z.string()),
});
export type Review = z.infer<typeof ReviewSchema>;

const text = (max: number) => z.string().check(z.maxLength(max));

/** The recipient as the order gives it: the spec 2.5 fields, any of them possibly empty (then in `needsReview`). */
export const OrderRecipientSchema = /* @__PURE__ */ z.strictObject({
  nome: text(200),
  cpfCnpj: z.optional(text(20)),
  telefone: z.optional(text(40)),
  email: z.optional(text(200)),
  endereco: z.strictObject({
    cep: text(9),
    logradouro: text(200),
    numero: text(40),
    complemento: z.optional(text(200)),
    bairro: text(120),
    cidade: text(120),
    uf: text(2),
  }),
});
export type OrderRecipient = z.infer<typeof OrderRecipientSchema>;

export const DimensionsSchema = /* @__PURE__ */ z.strictObject({
  comprimento: z.number().check(z.gt(0), z.lte(200)),
  largura: z.number().check(z.gt(0), z.lte(200)),
  altura: z.number().check(z.gt(0), z.lte(200)),
});
export type Dimensions = z.infer<typeof DimensionsSchema>;

/** One line of the order: a unit's weight (grams) and, when the platform has them, sides (cm); unit value in BRL. */
export const OrderItemSchema = /* @__PURE__ */ z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  sku: z.optional(text(100)),
  quantity: z.int().check(z.gte(1), z.lte(999)),
  weightGrams: z.optional(z.int().check(z.gte(1), z.lte(100_000))),
  dimensions: z.optional(DimensionsSchema),
  valor: z.number().check(z.gte(0), z.lte(1_000_000)),
  /** What the shopper ordered, when an edit or a refund left less to ship (`quantity` is what is left). */
  ordered: z.optional(z.int().check(z.gte(1))),
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

/** An order as it is stored: what arrived, split, with what needs the operator. */
export const StoreOrderSchema = /* @__PURE__ */ z.strictObject({
  orderId: z.string().check(z.minLength(1), z.maxLength(160)),
  source: z.enum(ORDER_SOURCES),
  /** The platform's own id of the order (to read it again and send the tracking back). */
  externalId: z.optional(z.string()),
  /** The shopper's chosen service (`serviceId`: Shopify's `service_code`, Nuvemshop's option `code`). */
  serviceId: z.optional(z.string().check(z.maxLength(60))),
  recipient: OrderRecipientSchema,
  items: z.array(OrderItemSchema).check(z.minLength(1), z.maxLength(50)),
  needsReview: z.array(ReviewSchema),
  /** The platform's address as it came (Shopify's `address1`/`address2`), shown beside a field to review. */
  rawAddress: z.optional(z.string().check(z.maxLength(500))),
  /** The store cancelled, refunded or voided it (`reason`: the platform's cancel reason, or what it did). */
  cancelled: z.optional(
    z.strictObject({ at: z.string().check(z.maxLength(40)), reason: z.string().check(z.maxLength(60)) }),
  ),
  /** No shipping address: the shopper picks it up at the store; never labelled. */
  pickup: z.optional(z.literal(true)),
});
export type StoreOrder = z.infer<typeof StoreOrderSchema>;

/** The CSV import's columns (docs/orders.md), in the template's order; any order is accepted. */
export const CSV_COLUMNS = [
  'orderId',
  'nome',
  'cpfCnpj',
  'email',
  'telefone',
  'cep',
  'logradouro',
  'numero',
  'complemento',
  'bairro',
  'cidade',
  'uf',
  'item',
  'quantidade',
  'pesoGramas',
  'valor',
  'serviceId',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Columns a line may leave empty. */
export const OPTIONAL_CSV_COLUMNS: readonly CsvColumn[] = [
  'cpfCnpj',
  'email',
  'telefone',
  'complemento',
  'bairro',
  'serviceId',
];
