import { McpClients } from '../../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL } from '../../../sandbox/testing.ts';
import { AgentLabelOutputSchema } from '../../../shared/labels/agent-label.ts';
import { ShipmentEventSchema } from '../../../shared/shipment-events.ts';
import type { ReceivedWebhook } from '../../../testing/receivers.ts';

/** A Standard Webhooks secret for tests: `whsec_` and the base64 of 32 bytes. */
export const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 42).toString('base64')}`;

/** The sample label for an order, to a shopper with an e-mail address (and a language, when given). */
export function orderLabel(orderId: string, extra: Record<string, unknown> = {}) {
  return {
    ...SAMPLE_LABEL,
    recipient: { ...SAMPLE_LABEL.recipient, nome: 'Maria Souza', email: 'maria@cliente.example' },
    orderId,
    ...extra,
  };
}

/**
 * The BFF's clock and the sandbox's carrier clock, moved together: the carrier's events appear as its clock moves, and
 * the BFF's stall clock counts the same days.
 */
export class Clocks {
  offsetMs = 0;
  readonly now = (): number => Date.now() + this.offsetMs;
  private readonly sandbox: RunningSandbox;

  constructor(sandbox: RunningSandbox) {
    this.sandbox = sandbox;
  }

  async advance(hours: number): Promise<void> {
    this.offsetMs += hours * 3_600_000;
    await this.sandbox.control('advance', { hours });
  }
}

/** Issues a label through the BFF's MCP server with the SDK's client (the agent's way); answers its record. */
export async function issueLabel(
  bffUrl: string,
  input: Record<string, unknown>,
  token = 'agent-all-scopes-0001',
) {
  const clients = new McpClients();
  try {
    const client = await clients.connect(`${bffUrl}/mcp`, token);
    const result = await clients.call(client, 'generate_label', input, 30_000);
    const label = AgentLabelOutputSchema.parse(result.structuredContent);
    if (!label.trackingCode) throw new Error(`no label: ${JSON.stringify(result.structuredContent)}`);
    return { ...label, trackingCode: label.trackingCode };
  } finally {
    await clients.closeAll();
  }
}

/** The events a receiver got, parsed with the shared schema (an unverified one fails the test). */
export function eventsOf(webhooks: readonly ReceivedWebhook[]) {
  return webhooks.map((webhook) => {
    if (webhook.verified === undefined) throw new Error(`unverified webhook: ${webhook.refusal}`);
    return { id: webhook.id, ...ShipmentEventSchema.parse(JSON.parse(webhook.body)) };
  });
}
