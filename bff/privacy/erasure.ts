import type { PrivacyRequest } from '../../shared/checkouts/privacy.ts';
import type { OrderSource } from '../../shared/orders/order.ts';
import type { Sql, SqlRunner } from '../../shared/sql/sql.ts';

/**
 * The erasure of a shopper's personal data (docs/privacy.md), everywhere `testing/personal-data.ts` says the kit keeps
 * it, in one transaction on node:sqlite or PostgreSQL:
 *
 * 1. the store's orders of the customer: named in the request by the platform's id, or whose recipient has the
 *    customer's e-mail, phone or CPF (a customer's order made as a guest is theirs too);
 * 2. those orders' recipient emptied (the order kept for its items: the merchant may still owe a parcel), their
 *    labels' and agents' approvals' recipients emptied, their e-mails' addresses emptied (a pending one is not sent);
 * 3. the customer's own privacy requests emptied of their identifiers.
 *
 * A store's erasure (`shop/redact`, `store/redact`) deletes the store's orders and what hangs on them, and empties
 * their labels' recipients (the ledger keeps what was bought: codes, prices, dates).
 */

/** What an erasure changed, per table: counts only (the report holds no personal data). */
export interface ErasureCounts {
  orders: number;
  labels: number;
  approvals: number;
  emails: number;
  requests: number;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(text: unknown): Json {
  try {
    const value: unknown = JSON.parse(String(text));
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** A spec 2.5 party with nothing of the person left: empty fields where the schema needs them, the UF kept. */
export function erasedParty(party: unknown): Json {
  const address = isObject(party) && isObject(party.endereco) ? party.endereco : {};
  return {
    nome: '',
    endereco: {
      cep: '',
      logradouro: '',
      numero: '',
      bairro: '',
      cidade: '',
      uf: typeof address.uf === 'string' ? address.uf : '',
    },
  };
}

const digits = (value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '') : '');
/** A phone as digits without Brazil's country code, so "+55 21 99876-5432" and "21998765432" are one. */
const phoneKey = (value: unknown) => {
  const d = digits(value);
  return d.length >= 12 && d.startsWith('55') ? d.slice(2) : d;
};

/** Whether an order's recipient is this customer (by e-mail, phone or CPF: what both platforms send). */
export function isCustomersRecipient(recipient: unknown, customer: PrivacyRequest['customer']): boolean {
  if (!isObject(recipient)) return false;
  const email = customer.email?.trim().toLowerCase();
  if (email && typeof recipient.email === 'string' && recipient.email.trim().toLowerCase() === email)
    return true;
  const phone = phoneKey(customer.phone);
  if (phone.length >= 8 && phoneKey(recipient.telefone) === phone) return true;
  const cpf = digits(customer.identification);
  return cpf.length >= 11 && digits(recipient.cpfCnpj) === cpf;
}

interface OrderRow {
  orderId: string;
  externalId: string | null;
  body: Json;
}

/** A store as `store_orders` keeps it: Shopify's shop in lower case, Nuvemshop's id as digits. */
export const storeNameKey = (store: string) => store.trim().toLowerCase();

const chunks = <T>(values: T[], size = 400): T[][] =>
  Array.from({ length: Math.ceil(values.length / size) }, (_, i) => values.slice(i * size, i * size + size));

const marks = (values: unknown[]) => values.map(() => '?').join(', ');

export class Erasure {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** The store's orders of the request's customer, as stored (for the data request's export too). */
  async customerOrders(
    runner: SqlRunner,
    request: Pick<PrivacyRequest, 'platform' | 'store' | 'orders' | 'customer'>,
  ): Promise<OrderRow[]> {
    // Shopify names orders by their numeric id; the kit keeps Shopify's GID (order-drafts.ts).
    const named = new Set(request.orders.flatMap((id) => [id, `gid://shopify/Order/${id}`]));
    const rows = await runner.all(
      'SELECT order_id, external_id, body FROM store_orders WHERE source = ? AND store = ?',
      [request.platform, storeNameKey(request.store)],
    );
    return rows
      .map((row) => ({
        orderId: String(row.order_id),
        externalId: row.external_id === null ? null : String(row.external_id),
        body: parse(row.body),
      }))
      .filter(
        (row) =>
          (row.externalId !== null && named.has(row.externalId)) ||
          isCustomersRecipient(row.body.recipient, request.customer),
      );
  }

  /** `customers/redact`: the customer's data erased from the store's orders and everything bound to them. */
  eraseCustomer(request: PrivacyRequest): Promise<ErasureCounts> {
    return this.sql.transaction(async (tx) => {
      const orders = await this.customerOrders(tx, request);
      for (const order of orders) {
        const reviews = Array.isArray(order.body.needsReview) ? order.body.needsReview : [];
        const { rawAddress: _dropped, ...body } = order.body;
        const erased = {
          ...body,
          recipient: erasedParty(order.body.recipient),
          needsReview: [
            ...reviews.filter((r) => isObject(r) && !String(r.field).startsWith('recipient')),
            { field: 'recipient', reason: 'missing', detail: 'erased at the customer’s request (LGPD)' },
          ],
        };
        // The content as last sent (orders' `as_sent`, for a change after a label) holds the recipient too.
        const kept = await tx.one('SELECT as_sent FROM store_orders WHERE order_id = ?', [order.orderId]);
        const sent = kept?.as_sent ? parse(kept.as_sent) : undefined;
        const uf = isObject(sent?.recipient) ? sent.recipient.uf : '';
        const empty = { nome: '', cep: '', logradouro: '', numero: '', complemento: '', cidade: '' };
        await tx.run('UPDATE store_orders SET body = ?, as_sent = ? WHERE order_id = ?', [
          JSON.stringify(erased),
          sent
            ? JSON.stringify({ ...sent, recipient: { ...empty, uf: typeof uf === 'string' ? uf : '' } })
            : null,
          order.orderId,
        ]);
      }
      const bound = await this.eraseBound(
        tx,
        orders.map((o) => o.orderId),
      );
      const requests = await this.eraseRequests(tx, request);
      return { orders: orders.length, ...bound, requests };
    });
  }

  /**
   * `shop/redact` / `store/redact`: the store's orders deleted (by the store they came from: another store of the
   * platform, connected since, keeps its own), their labels' recipients emptied.
   */
  eraseStore(source: OrderSource, store: string): Promise<ErasureCounts> {
    return this.sql.transaction(async (tx) => {
      const key = storeNameKey(store);
      const ids = (
        await tx.all('SELECT order_id FROM store_orders WHERE source = ? AND store = ?', [source, key])
      ).map((r) => String(r.order_id));
      const bound = await this.eraseBound(tx, ids);
      for (const part of chunks(ids)) {
        await tx.run(`DELETE FROM store_webhooks WHERE order_id IN (${marks(part)})`, part);
        await tx.run(`DELETE FROM store_fulfillments WHERE order_id IN (${marks(part)})`, part);
      }
      await tx.run('DELETE FROM store_orders WHERE source = ? AND store = ?', [source, key]);
      const requests = await tx.run('DELETE FROM privacy_requests WHERE platform = ? AND store = ?', [
        source,
        store,
      ]);
      return { orders: ids.length, ...bound, requests };
    });
  }

  /** The labels, approvals and e-mails bound to these orders, emptied of the recipient. */
  private async eraseBound(
    tx: SqlRunner,
    orderIds: string[],
  ): Promise<Pick<ErasureCounts, 'labels' | 'approvals' | 'emails'>> {
    let labels = 0;
    let emails = 0;
    for (const part of chunks(orderIds)) {
      const attempts = await tx.all(
        `SELECT id, request FROM label_attempts WHERE order_id IN (${marks(part)})`,
        part,
      );
      for (const attempt of attempts) {
        const request = parse(attempt.request);
        await tx.run("UPDATE label_attempts SET request = ?, recipient = '' WHERE id = ?", [
          JSON.stringify({ ...request, recipient: erasedParty(request.recipient) }),
          String(attempt.id),
        ]);
      }
      labels += attempts.length;
      const ids = attempts.map((a) => String(a.id));
      for (const few of chunks(ids)) {
        const changed = await tx.run(
          `UPDATE notification_deliveries SET target = '', last_error = NULL,
             state = CASE WHEN state IN ('pending', 'retrying') THEN 'failed' ELSE state END
           WHERE channel = 'email' AND attempt_id IN (${marks(few)})`,
          few,
        );
        emails += changed;
      }
    }
    // Approvals are few (pending agents' labels, then their decisions): read whole, matched by their order.
    const wanted = new Set(orderIds);
    let approvals = 0;
    for (const row of await tx.all('SELECT id, request FROM label_approvals')) {
      const request = parse(row.request);
      if (typeof request.orderId !== 'string' || !wanted.has(request.orderId)) continue;
      await tx.run('UPDATE label_approvals SET request = ? WHERE id = ?', [
        JSON.stringify({ ...request, recipient: erasedParty(request.recipient) }),
        String(row.id),
      ]);
      approvals += 1;
    }
    return { labels, approvals, emails };
  }

  /** The customer's own requests (a data request before the redaction), emptied of their identifiers. */
  private async eraseRequests(tx: SqlRunner, request: PrivacyRequest): Promise<number> {
    const rows = await tx.all('SELECT id, customer FROM privacy_requests WHERE platform = ? AND store = ?', [
      request.platform,
      request.store,
    ]);
    let erased = 0;
    for (const row of rows) {
      const customer = parse(row.customer);
      const same =
        (customer.id !== undefined && customer.id === request.customer.id) ||
        isCustomersRecipient(
          { email: customer.email, telefone: customer.phone, cpfCnpj: customer.identification },
          request.customer,
        );
      if (!same) continue;
      await tx.run("UPDATE privacy_requests SET customer = '{}' WHERE id = ?", [String(row.id)]);
      erased += 1;
    }
    return erased;
  }
}
