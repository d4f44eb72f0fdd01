import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { AgentLabelOutputSchema, PreviewLabelOutputSchema } from '../../shared/labels/agent-label.ts';
import { RatesResponseSchema } from '../../shared/quote.ts';
import { deskSession } from '../desk/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * Approvals that tell the merchant the truth (issue 38, findings 1, 2, 6 and 7): the card's price is what the label
 * costs the store, the agent's limits left today are on it, a label over them is issued only after a second
 * confirmation (and counts), each agent's request reaches the desk, and pending approvals stay listed. One sandbox
 * and one BFF for the file; its clock runs ahead on demand (`skew`), so approvals can be told apart by time.
 */
const PASSWORD = 'senha-do-lojista-approvals';
const TOKENS = [
  // The attack's agent: 1 label and R$ 100 a day, the merchant approves any label declared above R$ 50.
  {
    token: 'agent-limited-0000001',
    scopes: ['labels'],
    name: 'limited',
    maxLabelsPerDay: 1,
    maxDeclaredValuePerDay: 100,
    approval: 50,
  },
  { token: 'agent-always-00000001', scopes: ['labels'], name: 'always', approval: 'always' },
  { token: 'agent-twin-a-00000001', scopes: ['labels'], name: 'twin-a', approval: 'always' },
  { token: 'agent-twin-b-00000001', scopes: ['labels'], name: 'twin-b', approval: 'always' },
];
let sandbox: RunningSandbox;
let bff: RunningBff;
let skew = 0;
const clients = new McpClients();

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(
    sandbox.url,
    {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_AGENT_TOKENS: JSON.stringify(TOKENS),
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    },
    { now: () => Date.now() + skew },
  );
  merchant = await login();
}, 30_000);
afterEach(() => clients.closeAll());
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

let merchant: { cookie: string; csrf: string };

const login = () => deskSession(bff.url, PASSWORD);

const post = (path: string, body: unknown = {}) =>
  fetch(`${bff.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: merchant.cookie, 'x-csrf-token': merchant.csrf },
    body: JSON.stringify(body),
  });

const ApprovalRowSchema = z.object({
  approvalId: z.string(),
  state: z.string(),
  issuedBy: z.string(),
  quotedPrice: z.optional(z.number()),
  declaredValue: z.number(),
  approvedOverLimit: z.optional(z.boolean()),
  limitsLeft: z.optional(
    z.object({
      labels: z.optional(z.number()),
      declaredValue: z.optional(z.number()),
      over: z.optional(z.string()),
    }),
  ),
});
const approvalsNow = async () =>
  z
    .object({ approvals: z.array(ApprovalRowSchema) })
    .parse(
      await (await fetch(`${bff.url}/admin/api/approvals`, { headers: { cookie: merchant.cookie } })).json(),
    ).approvals;

const sent = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo']?.['mcp:generate_label'] ?? 0;

/** A label declared at `valor` for an order, a street number of its own so each is another request. */
const labelFor = (orderId: string, valor: number, numero: string) => ({
  ...SAMPLE_LABEL,
  recipient: { ...SAMPLE_LABEL.recipient, endereco: { ...SAMPLE_LABEL.recipient.endereco, numero } },
  declaredItems: [{ conteudo: 'Jaqueta', quantidade: 1, valor }],
  orderId,
});

async function ask(token: string, input: Record<string, unknown>) {
  const client = await clients.connect(`${bff.url}/mcp`, token);
  const result = await clients.call(client, 'generate_label', input);
  return AgentLabelOutputSchema.parse(result.structuredContent);
}

describe('an approval within and over the agent’s daily limits (1 label, R$ 100)', () => {
  it('issues the first of three R$ 90 labels, and the next two only with the merchant’s second confirmation', async () => {
    const first = await ask('agent-limited-0000001', labelFor('PED-LIM-1', 90, '101'));
    expect(first.reason).toBe('approval_pending');
    const card = (await approvalsNow()).find((a) => a.approvalId === first.approvalId);
    expect(card?.limitsLeft).toMatchObject({ labels: 1, declaredValue: 100 });
    expect(card?.limitsLeft?.over).toBeUndefined();
    expect((await post(`/admin/api/approvals/${first.approvalId}/approve`)).status).toBe(201);

    const before = await sent();
    const approvalIds: string[] = [];
    for (const [order, numero] of [
      ['PED-LIM-2', '102'],
      ['PED-LIM-3', '103'],
    ] as const) {
      const asked = await ask('agent-limited-0000001', labelFor(order, 90, numero));
      expect(asked.reason).toBe('approval_pending');
      approvalIds.push(asked.approvalId ?? '');
    }
    for (const approvalId of approvalIds) {
      const card2 = (await approvalsNow()).find((a) => a.approvalId === approvalId);
      expect(card2?.limitsLeft).toMatchObject({ labels: 0, declaredValue: 10, over: 'maxLabelsPerDay' });
      const refused = await post(`/admin/api/approvals/${approvalId}/approve`);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        error: { code: 'agent_limit_reached', limit: 'maxLabelsPerDay', limitsLeft: { labels: 0 } },
      });
      expect((await approvalsNow()).find((a) => a.approvalId === approvalId)?.state).toBe('pending');
    }
    expect(await sent()).toBe(before);

    // The merchant says so explicitly for one of them: issued, recorded, and counted against the agent's day.
    const [second, third] = approvalIds;
    expect((await post(`/admin/api/approvals/${second}/approve`, { overLimit: true })).status).toBe(201);
    expect(await sent()).toBe(before + 1);
    const decided = (await approvalsNow()).find((a) => a.approvalId === second);
    expect(decided).toMatchObject({ state: 'approved', approvedOverLimit: true });
    const thirdCard = (await approvalsNow()).find((a) => a.approvalId === third);
    expect(thirdCard?.limitsLeft).toMatchObject({ labels: 0, declaredValue: 0 });
    const client = await clients.connect(`${bff.url}/mcp`, 'agent-limited-0000001');
    const preview = PreviewLabelOutputSchema.parse(
      (await clients.call(client, 'preview_label', labelFor('PED-LIM-4', 10, '104'))).structuredContent,
    );
    expect(preview.limitsLeft).toMatchObject({ labels: 0, declaredValue: 0 });
    expect(preview.wouldSend).toBe(false);

    const page = await (
      await fetch(`${bff.url}/admin/approvals`, { headers: { cookie: merchant.cookie } })
    ).text();
    expect(page).toContain('data-over-limit');
    expect(page).toContain(`data-approve-over="${third}"`);
    expect(page).toContain('aprovada acima do limite');
  });
});

describe('the price on an approval', () => {
  it('is what a 20 kg PAC label costs the store at R$ 2.500 declared, never the shopper’s free PAC (R$ 0,00)', async () => {
    const heavy = {
      ...labelFor('PED-PRICE-1', 2500, '201'),
      weightGrams: 20_000,
      dimensions: { comprimento: 40, largura: 30, altura: 30 },
    };
    const asked = await ask('agent-always-00000001', heavy);
    const card = (await approvalsNow()).find((a) => a.approvalId === asked.approvalId);
    // What the carrier charges for this parcel: the same quote with a cart under the free-shipping threshold.
    const quoted = RatesResponseSchema.parse(
      await (
        await sandbox.post(
          '/v1/rates',
          {
            destinationCep: heavy.recipient.endereco.cep,
            items: [{ name: 'x', quantity: 1, unitPriceBRL: 298.99, weightKg: 20 }],
          },
          'mk_test_demo',
        )
      ).json(),
    );
    const pac = quoted.rates.find((rate) => rate.serviceId === 'correios-pac');
    expect(pac?.price).toBe(86.1);
    expect(card?.quotedPrice).toBe(86.1);

    const client = await clients.connect(`${bff.url}/mcp`, 'agent-always-00000001');
    const preview = PreviewLabelOutputSchema.parse(
      (await clients.call(client, 'preview_label', heavy)).structuredContent,
    );
    expect(preview.quotedPrice).toBe(86.1);
    const page = await (
      await fetch(`${bff.url}/admin/approvals`, { headers: { cookie: merchant.cookie } })
    ).text();
    expect(page).toContain('Custo da etiqueta');
    expect(page).toMatch(/86,10/);
  });

  it('is the same in the desk’s own quote of the order', async () => {
    const response = await post('/admin/api/quote', {
      destinationCep: SAMPLE_LABEL.recipient.endereco.cep,
      volumes: [{ weightGrams: 20_000 }],
      declaredValue: 2500,
    });
    const quote = RatesResponseSchema.parse(await response.json());
    const pac = quote.rates.find((rate) => rate.serviceId === 'correios-pac');
    expect(pac).toMatchObject({ price: 86.1 });
    expect(pac?.free).toBeFalsy();
  });
});

describe('two agents asking for the same order and volume', () => {
  it('each get their own approval, and both reach the desk', async () => {
    const input = labelFor('PED-TWIN-1', 80, '301');
    const a = await ask('agent-twin-a-00000001', input);
    const b = await ask('agent-twin-b-00000001', input);
    expect(a.reason).toBe('approval_pending');
    expect(b.reason).toBe('approval_pending');
    expect(b.approvalId).not.toBe(a.approvalId);
    const pending = (await approvalsNow()).filter((row) => row.state === 'pending');
    expect(pending.find((row) => row.approvalId === a.approvalId)?.issuedBy).toBe('twin-a');
    expect(pending.find((row) => row.approvalId === b.approvalId)?.issuedBy).toBe('twin-b');
    // Each agent asking again is told its own approval.
    expect((await ask('agent-twin-b-00000001', input)).approvalId).toBe(b.approvalId);
  });
});

describe('pending approvals while many more are decided', () => {
  it('lists 3 older pending approvals after 208 newer decided ones, in the API, the page and its badge', async () => {
    const store = bff.backends.approvals;
    const request = JSON.stringify(labelFor('PED-OLD', 60, '401'));
    const waiting: string[] = [];
    skew += 60_000;
    for (let i = 0; i < 3; i++) {
      const asked = await store.request({
        intent: `order:PED-OLD-${i}#1`,
        request,
        issuedBy: 'always',
        declaredValueCents: 6000,
        ttlMs: 86_400_000,
        maxPending: 50,
      });
      waiting.push(asked?.id ?? '');
    }
    skew += 60_000;
    for (let i = 0; i < 208; i++) {
      const asked = await store.request({
        intent: `order:PED-NEW-${i}#1`,
        request,
        issuedBy: 'twin-a',
        declaredValueCents: 6000,
        ttlMs: 86_400_000,
        maxPending: 500,
      });
      await store.decide(asked?.id ?? '', 'rejected');
    }
    const listed = await approvalsNow();
    for (const id of waiting) expect(listed.find((row) => row.approvalId === id)?.state).toBe('pending');
    const page = await (
      await fetch(`${bff.url}/admin/approvals`, { headers: { cookie: merchant.cookie } })
    ).text();
    const pendingCount = listed.filter((row) => row.state === 'pending').length;
    expect(page).toContain(`Esperando você (${pendingCount})`);
    for (const id of waiting) expect(page).toContain(`data-approve="${id}"`);
  });
});
