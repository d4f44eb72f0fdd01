import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/labels/diagnosis.ts';
import { GetLabelPdfOutputSchema, LabelRecordSchema } from '../../shared/labels/label.ts';
import { callTool, connectMcp } from '../mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;
const clients: Client[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 10, labelPdfWaitMs: 1000 });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(key: string): Promise<Client> {
  const client = await connectMcp(`${sandbox.url}/mcp`, { authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

async function prepostings(): Promise<unknown[]> {
  return (
    (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as { prepostings: unknown[] }
  ).prepostings;
}

describe('contrato-invalido: the carrier refuses the store credentials (spec 1 rule 4)', () => {
  it('creates no pre-posting and no PDF, and says why with the contract page', async () => {
    const client = await connect('mk_test_contrato_invalido');
    const sender = {
      ...SAMPLE_LABEL.sender,
      endereco: { ...SAMPLE_LABEL.sender.endereco, cep: '80010-000', uf: 'PR', cidade: 'Curitiba' },
    };
    const result = await callTool(client, 'generate_label', { ...SAMPLE_LABEL, sender });
    const record = LabelRecordSchema.parse(result.structuredContent);
    expect(record.prepostagemId).toBeUndefined();
    expect(record.trackingCode).toBeUndefined();
    expect(record.labelPdfBase64).toBeUndefined();
    expect(record.reason).toBe('own_contract_required');
    expect(record.actionUrl).toMatch(/\/contrato-invalido\/carrier-contract$/);
    expect(record.status).toMatch(/recusad/);
    expect(await prepostings()).toEqual([]);
    const diagnosis = await callTool(client, 'diagnose_label_issue', {
      supportCode: String(result.structuredContent?.supportCode),
    });
    const [attempt] = DiagnoseLabelIssueOutputSchema.parse(diagnosis.structuredContent).attempts;
    expect(attempt).toMatchObject({ outcome: 'failed', reason: 'own_contract_required' });
    expect(attempt?.prepostagemId).toBeUndefined();
  });

  it('still issues for loja-demo (the check above is about the store, not the tool)', async () => {
    const result = await callTool(await connect('mk_test_demo'), 'generate_label', SAMPLE_LABEL);
    expect(LabelRecordSchema.parse(result.structuredContent).prepostagemId).toMatch(/^PP/);
    expect(await prepostings()).toHaveLength(1);
  });
});

describe('get_label_pdf without a plan (spec 3.3)', () => {
  it('returns a status with the reason and the actionUrl', async () => {
    const result = await callTool(await connect('mk_test_sem_plano'), 'get_label_pdf', {
      prepostagemId: 'PP1',
    });
    const output = GetLabelPdfOutputSchema.parse(result.structuredContent);
    expect(output).toMatchObject({
      reason: 'subscription_required',
      actionUrl: expect.stringMatching(/^https:/),
    });
    expect(output.status?.length).toBeGreaterThan(0);
    expect(output.labelPdfBase64).toBeUndefined();
  });
});

describe('diagnose_label_issue by support code', () => {
  it('finds the attempt whatever the case of the UUID', async () => {
    const client = await connect('mk_test_demo');
    const rejected = await callTool(client, 'generate_label', { ...SAMPLE_LABEL, serviceCode: 'PAC' });
    const supportCode = String(rejected.structuredContent?.supportCode);
    expect(supportCode).toMatch(/[a-f]/);
    for (const asked of [supportCode, supportCode.toUpperCase()]) {
      const found = await callTool(client, 'diagnose_label_issue', { supportCode: asked });
      const attempts = DiagnoseLabelIssueOutputSchema.parse(found.structuredContent).attempts;
      expect(attempts.map((a) => a.supportCode)).toEqual([supportCode]);
    }
  });
});
