import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AgentLabelOutputSchema } from '../../shared/labels/agent-label.ts';

/** A demo shopper: her e-mails land in the outbox (`/mail`). */
const MARIA = {
  nome: 'Maria Souza',
  email: 'maria@cliente.example',
  endereco: {
    cep: '20040-020',
    logradouro: 'Avenida Rio Branco',
    numero: '156',
    bairro: 'Centro',
    cidade: 'Rio de Janeiro',
    uf: 'RJ',
  },
};
const STORE = {
  nome: 'Loja Demo',
  endereco: {
    cep: '01310-100',
    logradouro: 'Avenida Paulista',
    numero: '1000',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
  },
};

/** What each demo order does, and when (simulated hours after its label) the sandbox is told to do it. */
const STORIES = [
  { orderId: 'DEMO-1001', story: 'arrives', scenario: undefined, afterHours: 0 },
  { orderId: 'DEMO-1002', story: 'stalls', scenario: 'stall', afterHours: 26 },
  {
    orderId: 'DEMO-1003',
    story: 'waits for pickup, then goes back',
    scenario: 'awaiting_pickup',
    afterHours: 30,
  },
] as const;

export interface DemoParcel {
  orderId: string;
  trackingCode: string;
  story: string;
}

/**
 * Issues the demo's three orders through the BFF's MCP server, as the demo agent would (the same order again is the
 * same label: a restart issues nothing twice), and tells the sandbox, at the right simulated moment, what the second
 * and third do next (`POST /_sandbox/tracking/<code>`), so the outbox shows a delivery, a stall and a pickup countdown
 * within minutes.
 */
export async function issueDemoParcels(options: {
  bffUrl: string;
  sandboxUrl: string;
  agentToken: string;
  clockSpeed: number;
}): Promise<DemoParcel[]> {
  const client = new Client({ name: 'frete-kit-demo', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${options.bffUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${options.agentToken}` } },
    }),
  );
  const parcels: DemoParcel[] = [];
  try {
    for (const { orderId, story, scenario, afterHours } of STORIES) {
      const result = await client.callTool({
        name: 'generate_label',
        arguments: {
          orderId,
          serviceId: 'correios-pac',
          weightGrams: 800,
          dimensions: { comprimento: 20, largura: 15, altura: 10 },
          sender: STORE,
          recipient: MARIA,
          declaredItems: [{ conteudo: 'Camiseta', quantidade: 1, valor: 79.9 }],
        },
      });
      const label = AgentLabelOutputSchema.parse(result.structuredContent);
      if (!label.trackingCode) continue;
      parcels.push({ orderId, trackingCode: label.trackingCode, story });
      if (!scenario) continue;
      const realMs = (afterHours * 3_600_000) / Math.max(1, options.clockSpeed);
      const timer = setTimeout(() => {
        void fetch(`${options.sandboxUrl}/_sandbox/tracking/${label.trackingCode}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ scenario }),
        }).catch(() => undefined);
      }, realMs);
      timer.unref();
    }
  } finally {
    await client.close();
  }
  return parcels;
}
