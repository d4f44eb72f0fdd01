import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { GenerateLabelInputSchema, GenerateLabelOutputSchema } from '../../../shared/labels/label.ts';
import { fingerprint } from '../fingerprint.ts';

/** A `generate_label` input as an agent writes it (before the schema's defaults and transforms). */
type GenerateLabelInputRaw = z.input<typeof GenerateLabelInputSchema>;

/**
 * The label fault soak, shared by the integration test (bff/labels/faults.test.ts) and `npm run bench`: agents send
 * look-alike orders through the BFF while the sandbox drops answers and adds latency, resend after
 * `outcome_unknown` as the instructions say, and the result is checked against the sandbox's own list of
 * pre-postings (each with the request it was made from).
 */

/** One intended label: an order and how its agent behaves. */
export interface SoakOrder {
  input: GenerateLabelInputRaw;
  idempotencyKey?: string;
  /** An order's box: the intended label is (`orderId`, `volume`); its other boxes may be identical. */
  orderId?: string;
  volume?: number;
  /** A second agent sends the same order at the same time (a double click, two workers). */
  twin: boolean;
  /** The agent sends the order once more after it was told the label (a retry of a careless agent). */
  again?: boolean;
}

/**
 * `base` varied only in the recipient's name and street number: orders a careless match would confuse. With
 * `volumes`, every fifth order is sent as two identical boxes of one order (orderId, volumes 1 and 2): two labels
 * that only the ledger's (order, volume) tells apart.
 */
export function lookAlikeOrders(
  base: GenerateLabelInputRaw,
  count: number,
  prefix: string,
  options: { volumes?: boolean } = {},
): SoakOrder[] {
  const names = ['Ana Souza', 'Ana Sousa', 'Ana  Souza', 'ana souza', 'Ana Souza Filha'];
  const orders = Array.from(
    { length: count },
    (_, i): SoakOrder => ({
      input: {
        ...base,
        recipient: {
          ...base.recipient,
          nome: `${names[i % names.length]}${i >= names.length * 8 ? ` ${i}` : ''}`,
          endereco: { ...base.recipient.endereco, numero: `${10 + Math.floor(i / names.length)}` },
        },
      },
      ...(i % 2 === 0 ? { idempotencyKey: `${prefix}-order-${i}` } : {}),
      twin: i % 3 === 0,
      again: i % 4 === 1,
    }),
  );
  if (!options.volumes) return orders;
  return orders.flatMap((order, i) => {
    if (i % 5 !== 4) return [order];
    const { idempotencyKey: _key, ...rest } = order;
    const orderId = `${prefix}-ped-${i}`;
    return [
      { ...rest, orderId, volume: 1 },
      { ...rest, orderId, volume: 2, twin: false },
    ];
  });
}

export interface OrderReport {
  fingerprint: string;
  /** The intended label: its key, its order and volume, or its request. */
  intent: string;
  /** Every prepostagemId this order's agents were told. */
  told: string[];
  /** The first answer's kind, and the last one's. */
  first: AnswerKind;
  last: AnswerKind;
  calls: number;
}

type AnswerKind = 'created' | 'unknown' | 'not_sent' | 'rejected' | 'refused' | 'error';

const PrepostingsSchema = z.object({
  prepostings: z.array(z.object({ prepostagemId: z.string(), request: z.record(z.string(), z.unknown()) })),
});

export interface SoakFigures {
  orders: number;
  calls: number;
  prepostings: number;
  dropsFired: number;
  /** Orders with more than one pre-posting. */
  duplicates: number;
  /** Orders told a prepostagemId made from another order's request (or from none), or told two different ones. */
  misassigned: number;
  /** Orders whose pre-posting exists but whose last answer was neither that label nor an honest unknown. */
  lost: number;
  /** Orders whose last answer is still unknown. */
  unknownAtEnd: number;
  /** First answers that were `outcome_unknown`. */
  firstUnknown: number;
  unknownPerDrop: number;
}

export async function connectAgent(bffUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'soak-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${bffUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function send(client: Client, order: SoakOrder): Promise<{ kind: AnswerKind; prepostagemId?: string }> {
  let result: z.infer<typeof CallToolResultSchema>;
  try {
    const raw = await client.callTool(
      {
        name: 'generate_label',
        arguments: {
          ...order.input,
          ...(order.idempotencyKey ? { idempotencyKey: order.idempotencyKey } : {}),
          ...(order.orderId ? { orderId: order.orderId, volume: order.volume ?? 1 } : {}),
        },
      },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    result = CallToolResultSchema.parse(raw);
  } catch {
    return { kind: 'error' };
  }
  const record = GenerateLabelOutputSchema.safeParse(result.structuredContent ?? {});
  if (!record.success) return { kind: 'error' };
  if (record.data.reason === 'outcome_unknown') return { kind: 'unknown' };
  if (record.data.reason === 'not_sent') return { kind: 'not_sent' };
  if (result.isError) return { kind: 'refused' };
  if (record.data.prepostagemId) return { kind: 'created', prepostagemId: record.data.prepostagemId };
  return { kind: 'rejected' };
}

/** One agent: sends, and resends after `outcome_unknown`, `not_sent` or a refusal, up to `tries` times. */
/** One agent's sends of an order; `client(n)` is where its n-th send goes (another instance, with several). */
async function agent(
  client: (n: number) => Client,
  order: SoakOrder,
  report: OrderReport,
  tries: number,
): Promise<void> {
  for (let n = 0; n < tries; n++) {
    const answer = await send(client(n), order);
    report.calls += 1;
    if (report.calls === 1) report.first = answer.kind;
    report.last = answer.kind;
    if (answer.prepostagemId) {
      report.told.push(answer.prepostagemId);
      if (order.again) {
        const again = await send(client(n + 1), order);
        report.calls += 1;
        if (again.prepostagemId) report.told.push(again.prepostagemId);
      }
      return;
    }
    if (answer.kind === 'rejected') return;
  }
}

/** Runs the orders, `concurrency` at a time, each order's agents resending up to `tries` times. */
export async function runSoak(options: {
  /** One BFF, or several instances: an order's twin goes to the next instance (a resend that reaches another one). */
  client: Client | Client[];
  orders: SoakOrder[];
  concurrency: number;
  tries: number;
  /** No new order starts after this time (epoch ms); the orders never started are left out of the result. */
  stopAt?: number;
}): Promise<OrderReport[]> {
  const reports = options.orders.map((order): OrderReport => {
    const fp = fingerprint(GenerateLabelInputSchema.parse(order.input));
    return {
      fingerprint: fp,
      intent: order.orderId
        ? `order:${order.orderId}#${order.volume ?? 1}`
        : order.idempotencyKey
          ? `key:${order.idempotencyKey}`
          : `request:${fp}`,
      told: [],
      first: 'error',
      last: 'error',
      calls: 0,
    };
  });
  let next = 0;
  const worker = async () => {
    while (next < options.orders.length && (options.stopAt === undefined || Date.now() < options.stopAt)) {
      const index = next++;
      const order = options.orders[index] as SoakOrder;
      const report = reports[index] as OrderReport;
      const clients = Array.isArray(options.client) ? options.client : [options.client];
      const at = (k: number) => (n: number) => clients[(index + k + n) % clients.length] as Client;
      const agents = [agent(at(0), order, report, options.tries)];
      if (order.twin) agents.push(agent(at(1), order, report, options.tries));
      await Promise.all(agents);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return reports.filter((report) => report.calls > 0);
}

/** Checks the reports against the sandbox's pre-postings (each with the request it was made from). */
export async function judgeSoak(sandboxUrl: string, reports: OrderReport[]): Promise<SoakFigures> {
  const listed = PrepostingsSchema.parse(await (await fetch(`${sandboxUrl}/_sandbox/prepostings`)).json());
  const stats = z
    .object({ faultsFired: z.record(z.string(), z.number()) })
    .parse(await (await fetch(`${sandboxUrl}/_sandbox/stats`)).json());
  const ownerOf = new Map<string, string>();
  const perOrder = new Map<string, number>();
  for (const p of listed.prepostings) {
    const parsed = GenerateLabelInputSchema.safeParse(p.request);
    const fp = parsed.success ? fingerprint(parsed.data) : 'unparsable';
    ownerOf.set(p.prepostagemId, fp);
    perOrder.set(fp, (perOrder.get(fp) ?? 0) + 1);
  }
  // Intended labels per request: one, except the identical boxes of one order (one label per volume).
  const intentsOf = new Map<string, number>();
  for (const report of reports)
    intentsOf.set(report.fingerprint, (intentsOf.get(report.fingerprint) ?? 0) + 1);
  const tellers = new Map<string, Set<string>>();
  for (const report of reports) {
    for (const id of new Set(report.told)) tellers.set(id, (tellers.get(id) ?? new Set()).add(report.intent));
  }
  let duplicates = 0;
  let misassigned = 0;
  let lost = 0;
  let unknownAtEnd = 0;
  let firstUnknown = 0;
  let calls = 0;
  for (const report of reports) {
    calls += report.calls;
    if ((perOrder.get(report.fingerprint) ?? 0) > (intentsOf.get(report.fingerprint) ?? 1)) duplicates += 1;
    if (
      report.told.some((id) => ownerOf.get(id) !== report.fingerprint || (tellers.get(id)?.size ?? 0) > 1) ||
      new Set(report.told).size > 1
    )
      misassigned += 1;
    if (report.first === 'unknown') firstUnknown += 1;
    const told = report.told.length > 0;
    if (!told && report.last === 'unknown') unknownAtEnd += 1;
    if (
      (perOrder.get(report.fingerprint) ?? 0) > 0 &&
      !told &&
      report.last !== 'unknown' &&
      report.last !== 'refused'
    )
      lost += 1;
  }
  const dropsFired = stats.faultsFired['mcp:generate_label drop_after_commit'] ?? 0;
  return {
    orders: reports.length,
    calls,
    prepostings: listed.prepostings.length,
    dropsFired,
    duplicates,
    misassigned,
    lost,
    unknownAtEnd,
    firstUnknown,
    unknownPerDrop: dropsFired === 0 ? 0 : firstUnknown / dropsFired,
  };
}
