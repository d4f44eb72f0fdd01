import type { AgentLabelInput } from '../../../shared/labels/agent-label.ts';
import type { StoreOrder } from '../../../shared/orders/order.ts';
import { migrate } from '../../../shared/sql/migrate.ts';
import { SqliteSql } from '../../../shared/sql/sqlite.ts';
import type { LabelAnswer } from '../../labels/answer.ts';
import type { LedgerAttempt } from '../../labels/ledger.ts';
import { LedgerStore } from '../../labels/ledger-store.ts';
import { createLogger } from '../../logger.ts';
import { NOTIFICATION_MIGRATIONS } from '../../notifications/migrations.ts';
import type { RatesService } from '../../rates/service.ts';
import { FulfillmentStore } from '../../stores/tracking-back.ts';
import type { CepAnswer } from '../cep-directory.ts';
import { OrderDesk } from '../order-desk.ts';
import { OrderStore } from '../order-store.ts';

/**
 * The order desk in process for the mutation run's tests (scripts/mutation/modules.ts, `bff/orders-desk`): the real
 * order store and fulfillment outbox on node:sqlite in memory, beside the ledger's and the watcher's tables; the label
 * service, the ledger's day list, the quote core and the store's connection scripted, each call recorded.
 */
/** What the CEP service answers for Avenida Paulista's CEP (01310-100), as the tests' lookups script it. */
export const PAULISTA: CepAnswer = {
  kind: 'address',
  service: 'viacep',
  address: {
    cep: '01310100',
    logradouro: 'Avenida Paulista',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
  },
};

export const BOXES = [
  { id: 'M', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 10_000 },
  { id: 'P', comprimento: 20, largura: 15, altura: 10, tareGrams: 100, maxWeightGrams: 5_000 },
];

export const SENDER = {
  nome: 'Loja Demo',
  endereco: {
    cep: '01310-100',
    logradouro: 'Av. Paulista',
    numero: '1000',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
  },
};

/** A whole order to Rio de Janeiro: one 400 g mug, PAC; `change` replaces any field. */
export function deskOrder(change: Partial<StoreOrder> = {}): StoreOrder {
  return {
    orderId: 'PED-1',
    source: 'csv',
    serviceId: 'pac',
    recipient: {
      nome: 'Ana Souza',
      endereco: {
        cep: '20040020',
        logradouro: 'Rua do Ouvidor',
        numero: '50',
        bairro: 'Centro',
        cidade: 'Rio de Janeiro',
        uf: 'RJ',
      },
    },
    items: [{ name: 'Caneca', quantity: 1, weightGrams: 400, valor: 30 }],
    needsReview: [],
    ...change,
  };
}

export interface ScriptedDesk {
  desk: OrderDesk;
  orders: OrderStore;
  fulfillments: FulfillmentStore;
  sql: SqliteSql;
  /** The label requests the desk sent, in order. */
  generated: AgentLabelInput[];
  /** What the label service answers a request (default: created, tracking `TRK<volume>-<orderId>`). */
  answer: (request: AgentLabelInput) => LabelAnswer | Promise<LabelAnswer>;
  /** The ledger's attempts `labelsOfDay` pages through (any order). */
  attempts: LedgerAttempt[];
  /** The ledger's pages asked for. */
  pages: { before: { createdAt: number; id: string }; limit: number }[];
  /** The quote core's answer (default: PAC at R$ 25.50), and what it was asked. */
  quote: (input: Parameters<RatesService['quote']>[0]) => Promise<Awaited<ReturnType<RatesService['quote']>>>;
  quotes: { input: Parameters<RatesService['quote']>[0]; caller: unknown }[];
  connected: Set<string>;
  drains: number;
  logs: Record<string, unknown>[];
  clock: { now: number };
  close(): Promise<void>;
}

export const created = (request: AgentLabelInput, code: string): LabelAnswer => ({
  kind: 'issued',
  orderId: request.orderId,
  volume: request.volume,
  outcome: {
    kind: 'created',
    attemptId: `att-${request.orderId}-${request.volume}`,
    replayed: false,
    record: { prepostagemId: `PP-${request.volume}`, trackingCode: code, status: 'created' },
  },
});

export async function scriptedDesk(options: { publicUrl?: string } = {}): Promise<ScriptedDesk> {
  const sql = new SqliteSql({ dataDir: ':memory:', file: 'labels.sqlite' });
  await new LedgerStore(sql).ready;
  await migrate(sql, NOTIFICATION_MIGRATIONS);
  const clock = { now: Date.parse('2026-12-07T15:00:00Z') };
  const orders = new OrderStore(sql, { now: () => clock.now });
  await orders.ready;
  const fulfillments = new FulfillmentStore(sql);
  const logs: Record<string, unknown>[] = [];
  const state = {
    generated: [] as AgentLabelInput[],
    answer: (request: AgentLabelInput): LabelAnswer | Promise<LabelAnswer> =>
      created(request, `TRK${request.volume}-${request.orderId}`),
    attempts: [] as LedgerAttempt[],
    pages: [] as ScriptedDesk['pages'],
    quote: async () => ({ rates: [{ serviceId: 'pac', price: 25.5 }] }) as never,
    quotes: [] as ScriptedDesk['quotes'],
    connected: new Set(['shopify', 'nuvemshop']),
    drains: 0,
  };
  const desk = new OrderDesk({
    orders,
    fulfillments,
    boxes: BOXES,
    publicUrl: options.publicUrl ?? 'https://fretes.example',
    logger: createLogger({ destination: { write: (line: string) => void logs.push(JSON.parse(line)) } }),
    now: () => clock.now,
    labels: {
      generate: async (request) => {
        state.generated.push(request);
        return scripted.answer(request);
      },
    },
    ledger: {
      list: async (filter = {}) => {
        const before = filter.before ?? { createdAt: Number.POSITIVE_INFINITY, id: '' };
        const limit = filter.limit ?? 50;
        state.pages.push({ before: { ...before }, limit });
        return [...scripted.attempts]
          .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
          .filter(
            (a) => a.createdAt < before.createdAt || (a.createdAt === before.createdAt && a.id < before.id),
          )
          .slice(0, limit);
      },
    },
    rates: {
      quote: async (input, caller) => {
        state.quotes.push({ input, caller });
        return scripted.quote(input);
      },
    },
    trackingBack: {
      connected: async (platform) => scripted.connected.has(platform),
      drain: async () => {
        scripted.drains += 1;
        return 0;
      },
    },
  });
  const scripted: ScriptedDesk = {
    ...state,
    desk,
    orders,
    fulfillments,
    sql,
    logs,
    clock,
    close: () => sql.close(),
  };
  return scripted;
}

/** A label of the order in the ledger's table, as bff/labels/ledger-store.ts writes it (to the order's CEP). */
export async function ledgerLabel(
  sql: SqliteSql,
  order: StoreOrder,
  label: { volume: number; state?: string; trackingCode?: string | null; cep?: string; status?: string },
): Promise<void> {
  const id = `att-${order.orderId}-${label.volume}-${label.state ?? 'created'}`;
  await sql.run(
    `INSERT INTO label_attempts (id, fingerprint, state, tracking_code, created_at, request, order_id, volume)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      `fp-${id}`,
      label.state ?? 'created',
      label.trackingCode === undefined ? `TRK${label.volume}` : label.trackingCode,
      Date.now(),
      JSON.stringify({ recipient: { endereco: { cep: label.cep ?? order.recipient.endereco.cep } } }),
      order.orderId,
      label.volume,
    ],
  );
  if (label.status)
    await sql.run(
      `INSERT INTO shipment_watches (attempt_id, tracking_code, status, changed_at, next_check_at, created_at)
       VALUES (?, ?, ?, 0, 0, 0)`,
      [id, label.trackingCode ?? `TRK${label.volume}`, label.status],
    );
}
