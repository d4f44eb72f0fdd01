import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL, samplePartyAt } from '../../sandbox/testing.ts';
import { connectAgent } from '../labels/testing/soak.ts';
import { TEST_AGENTS } from '../testing.ts';
import { type OrderStack, shopifyOrder, startOrderStack } from './testing.ts';

/**
 * An agent has no tool that reads the store's orders, and `/api/orders/lookup` answers only who gives the order's CEP.
 * The binding's refusal must not hand an agent what those keep: a label asked for under a store order's number (they
 * are sequential: `#1001`, `#1002`…) with any CEP must not say where the order goes, or any token holder walks the
 * numbers and collects every shopper's CEP, for free (nothing is sent).
 */
let stack: OrderStack;
let agent: Client;
beforeAll(async () => {
  stack = await startOrderStack(
    { BFF_AGENT_TOKENS: JSON.stringify(TEST_AGENTS) },
    { orders: { timers: false }, random: () => 0 },
  );
  agent = await connectAgent(stack.bff.url, 'agent-all-scopes-0001');
}, 30_000);
afterAll(async () => {
  await agent?.close();
  await stack?.close();
});

describe("the refusal of a label under a store order's number", () => {
  it("does not tell an agent the order's CEP (generate_label, preview_label)", async () => {
    const { order } = await stack.paid('shopify', shopifyOrder());
    const probe = {
      ...SAMPLE_LABEL,
      recipient: samplePartyAt('01310-100', 'SP', 'São Paulo'),
      orderId: order.orderId,
    };
    for (const name of ['generate_label', 'preview_label']) {
      const result = await agent.callTool({ name, arguments: probe });
      const said = JSON.stringify(result);
      expect(said).toContain('order_mismatch');
      expect(said).not.toMatch(/20040-?020/);
    }
  }, 60_000);
});
