import { connect as connectTcp } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { AgentLabelOutputSchema, PreviewLabelOutputSchema } from '../../shared/labels/agent-label.ts';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/labels/diagnosis.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * What an agent is told before anything reaches the platform (issue 38, findings 9–12 and 14): characters an
 * order id may not carry, params that are not an object, a UF that is not its CEP's, the BFF's own ledger in a
 * diagnosis by order, summaries without placeholders, and the early 401 that reaches a client still sending its body.
 * One sandbox and one BFF for the file.
 */
const ALL = 'agent-all-scopes-0001';
let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(sandbox.url, {
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  });
}, 30_000);
afterEach(() => clients.closeAll());
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

const connect = () => clients.connect(`${bff.url}/mcp`, ALL);
const sent = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo']?.['mcp:generate_label'] ?? 0;

/** A JSON-RPC request to the BFF's /mcp as a hand-written client would send it. */
async function rpc(body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${bff.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${ALL}`,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('tools/call with arguments that are not an object', () => {
  it.each([
    ['null', null],
    ['a string', 'x'],
    ['an array', [1]],
  ])('answers JSON-RPC -32602 with a one-line message for arguments %s', async (_what, args) => {
    const { status, body } = await rpc({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'track_shipment', arguments: args },
    });
    expect(status).toBe(200);
    const error = (body as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid params: params\.arguments/);
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(200);
  });

  it('answers the well-formed requests of the same batch as usual', async () => {
    const { body } = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'track_shipment', arguments: null } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    const [first, second] = body as [{ error?: { code: number } }, { result?: { tools: unknown[] } }];
    expect(first.error?.code).toBe(-32602);
    expect(second.result?.tools.length).toBeGreaterThan(0);
  });
});

describe('orderId and idempotencyKey refuse what party fields refuse', () => {
  it.each([
    ['U+202E (right-to-left override)', 'PED-\u202e1'],
    ['U+2028 (line separator)', 'PED-\u20281'],
    ['a C1 control (U+0085)', 'PED-\u00851'],
    ['a zero-width space', 'PED-\u200b1'],
  ])(
    'refuses %s in orderId and in idempotencyKey, in preview_label and generate_label, sending nothing',
    async (_what, text) => {
      const client = await connect();
      const before = await sent();
      for (const tool of ['preview_label', 'generate_label']) {
        for (const field of ['orderId', 'idempotencyKey']) {
          const result = await clients.call(client, tool, { ...SAMPLE_LABEL, [field]: text });
          expect(result.isError, `${tool} ${field}`).toBe(true);
          expect(JSON.stringify(result.content), `${tool} ${field}`).toContain(field);
        }
      }
      expect(await sent()).toBe(before);
    },
  );

  it('still takes an order id with accents and spaces', async () => {
    const client = await connect();
    const result = await clients.call(client, 'preview_label', {
      ...SAMPLE_LABEL,
      orderId: 'Pedido nº 1.234 — São',
    });
    expect(result.isError).toBeFalsy();
  });
});

describe('a UF that is not its CEP’s', () => {
  const rjAtPaulista = {
    ...SAMPLE_LABEL,
    recipient: {
      ...SAMPLE_LABEL.recipient,
      endereco: { ...SAMPLE_LABEL.recipient.endereco, cep: '01310-100' },
    },
  };

  it('is refused by preview_label (would not send) and by generate_label, before the platform', async () => {
    const client = await connect();
    const before = await sent();
    const preview = PreviewLabelOutputSchema.parse(
      (await clients.call(client, 'preview_label', rjAtPaulista)).structuredContent,
    );
    expect(preview).toMatchObject({
      wouldSend: false,
      reason: 'cep_uf_mismatch',
      field: 'recipient.endereco.uf',
    });
    expect(preview.message).toContain('SP');
    const generated = await clients.call(client, 'generate_label', rjAtPaulista);
    expect(generated.isError).toBe(true);
    expect(AgentLabelOutputSchema.parse(generated.structuredContent)).toMatchObject({
      reason: 'cep_uf_mismatch',
      field: 'recipient.endereco.uf',
    });
    expect(await sent()).toBe(before);
  });

  it('checks the sender too, and takes a lower-case UF that matches', async () => {
    const client = await connect();
    const senderInRj = {
      ...SAMPLE_LABEL,
      sender: { ...SAMPLE_LABEL.sender, endereco: { ...SAMPLE_LABEL.sender.endereco, uf: 'RJ' } },
    };
    const preview = PreviewLabelOutputSchema.parse(
      (await clients.call(client, 'preview_label', senderInRj)).structuredContent,
    );
    expect(preview).toMatchObject({ wouldSend: false, field: 'sender.endereco.uf' });
    const lower = {
      ...SAMPLE_LABEL,
      recipient: { ...SAMPLE_LABEL.recipient, endereco: { ...SAMPLE_LABEL.recipient.endereco, uf: 'rj' } },
    };
    expect(
      PreviewLabelOutputSchema.parse((await clients.call(client, 'preview_label', lower)).structuredContent)
        .wouldSend,
    ).toBe(true);
  });
});

describe('diagnose_label_issue by orderId', () => {
  it('answers the attempts this BFF made for the order (the platform’s carry no orderId)', async () => {
    const client = await connect();
    const issued = AgentLabelOutputSchema.parse(
      (
        await clients.call(client, 'generate_label', {
          ...SAMPLE_LABEL,
          orderId: 'PED-DIAG-1',
          volume: 1,
        })
      ).structuredContent,
    );
    expect(issued.prepostagemId).toBeDefined();
    const result = await clients.call(client, 'diagnose_label_issue', { orderId: 'PED-DIAG-1' });
    const { attempts } = DiagnoseLabelIssueOutputSchema.parse(result.structuredContent);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      orderId: 'PED-DIAG-1',
      outcome: 'created',
      prepostagemId: issued.prepostagemId,
      trackingCode: issued.trackingCode,
      supportCode: issued.supportCode,
    });
    const text = JSON.stringify(result.content);
    expect(text).not.toContain('No label attempts');
    const other = await clients.call(client, 'diagnose_label_issue', { orderId: 'PED-DIAG-NONE' });
    expect(DiagnoseLabelIssueOutputSchema.parse(other.structuredContent).attempts).toEqual([]);
  });
});

describe('summaries without placeholders', () => {
  it('says what was refused, and no "service ?", when preview_label refuses an unknown service', async () => {
    const client = await connect();
    const { serviceCode: _code, ...rest } = SAMPLE_LABEL;
    const result = await clients.call(client, 'preview_label', { ...rest, serviceId: 'correios-mini' });
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    const summary = text.split('\n')[0] ?? '';
    expect(summary).toContain('unknown_service');
    expect(summary).not.toMatch(/\?|service \(|no quote for this service/);
  });
});

/**
 * A client that sends its whole body before it reads, as many do: the headers and a first part, a pause (until the
 * server answers, or 100 ms: a server that answers only once it has the body answers after), then the rest.
 */
async function postWholeBodyThenRead(
  url: string,
  bytes: number,
): Promise<{ response: string; error?: string }> {
  const { hostname, port } = new URL(url);
  const socket = connectTcp(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const received: Buffer[] = [];
  let error: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => {
    error = e.code ?? e.message;
  });
  const answered = new Promise((resolve) => {
    socket.once('data', resolve);
    setTimeout(resolve, 100);
  });
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: ${new URL(url).host}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${bytes}\r\n\r\n`,
  );
  const first = 64 * 1024;
  socket.write(Buffer.alloc(first, 0x20));
  await answered;
  // The rest of the body, after the server has answered (and, before issue 38, closed the connection).
  await new Promise<void>((resolve) => {
    socket.write(Buffer.alloc(bytes - first, 0x20), () => resolve());
  });
  await closed;
  return { response: Buffer.concat(received).toString('latin1'), ...(error ? { error } : {}) };
}

describe('the early 401 on /mcp', () => {
  it('reaches a client that sends a whole 1 MB body before reading, every time, and then closes', async () => {
    for (let round = 0; round < 5; round++) {
      const { response, error } = await postWholeBodyThenRead(bff.url, 1_000_000);
      expect(error, `round ${round}`).toBeUndefined();
      expect(response).toMatch(/^HTTP\/1\.1 401 /);
      expect(response).toMatch(/\r\nConnection: close\r\n/i);
      expect(response).toContain('invalid_api_key');
    }
  });

  it('cuts a body over the limit instead of reading it', async () => {
    const { hostname, port } = new URL(bff.url);
    const socket = connectTcp(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${new URL(bff.url).host}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 50000000\r\n\r\n',
    );
    await closed;
    expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 401 /);
  });
});
