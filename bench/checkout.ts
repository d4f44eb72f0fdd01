import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as z from 'zod/mini';
import { SHOPIFY_HMAC_HEADER, shopifyHmac } from '../shared/checkouts/shopify.ts';
import type { QuoteItem } from '../shared/quote.ts';
import { load, sideBySide } from './http.ts';
import { BENCH_AGENT_TOKEN, startBffProcess, startSandboxProcess } from './processes.ts';
import { type Figure, round } from './stats.ts';

const SECRET = 'shpss_bench_checkout_secret_0001';
const CHECKOUT_TOKEN = 'bench-checkout-token-0001';
const DEADLINE_MS = 2500;
/** An answer "in time" leaves the BFF by the deadline; this much more is the loopback and the load generator. */
const SLACK_MS = 100;
/** Requests a second of the cached-callback comparison. */
const LOAD_RATE = 200;
const CEPS = [
  '20040-020',
  '30130-000',
  '40010-000',
  '50010-000',
  '60060-000',
  '69900-000',
  '80010-000',
  '90010-000',
];

const ReasonOf = z.looseObject({ reason: z.optional(z.string()) });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cart `i` of a storm: each distinct in its items or CEP, so every first ask of it needs the platform. */
function cart(i: number): { cep: string; items: QuoteItem[] } {
  return {
    cep: CEPS[i % CEPS.length] ?? '20040-020',
    items: [
      { name: 'Camiseta', quantity: 1 + (i % 3), unitPriceBRL: 79.9, weightKg: 0.3 },
      { name: `Item ${i}`, quantity: 1, unitPriceBRL: 10 + i, weightKg: 0.1 },
    ],
  };
}

function shopifyBody(i: number) {
  const { cep, items } = cart(i);
  return {
    rate: {
      destination: { country: 'BR', postal_code: cep },
      items: items.map((item) => ({
        name: item.name,
        quantity: item.quantity,
        grams: Math.round(item.weightKg * 1000),
        price: Math.round(item.unitPriceBRL * 100),
        requires_shipping: true,
      })),
      currency: 'BRL',
      locale: 'pt-BR',
    },
  };
}

interface Answer {
  status: number;
  ms: number;
}

async function askShopify(bffUrl: string, i: number): Promise<Answer> {
  const body = JSON.stringify(shopifyBody(i));
  const started = performance.now();
  const res = await fetch(`${bffUrl}/checkout/shopify/rates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SHOPIFY_HMAC_HEADER]: shopifyHmac(SECRET, body) },
    body,
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

async function platformCalls(sandboxUrl: string): Promise<number> {
  const stats = (await (await fetch(`${sandboxUrl}/_sandbox/stats`)).json()) as {
    stores: Record<string, Record<string, number>>;
  };
  return stats.stores['loja-demo']?.['POST /v1/rates'] ?? 0;
}

/**
 * Figure 12 (issue 34): a checkout storm on Shopify's callback — 600 requests a minute (10 a second) over 200
 * distinct carts, each cart asked three times — against a platform that allows 60 quotes a minute
 * (`SHIPPING_RATE_LIMIT` and the sandbox alike; the BFF keeps half for shoppers' browsers). Every answer must be a
 * price or a 503 (Shopify's backup rates) by the deadline, and the platform must never see more than its limit. Then
 * the latency of a cached callback beside the sandbox's own `/v1/rates` (autocannon, 10 connections).
 */
export async function measureCheckoutStorm(seconds = 60, rounds = 3, loadSeconds = 4): Promise<Figure> {
  const sandbox = await startSandboxProcess('60/60');
  const bff = await startBffProcess(sandbox.url, {
    SHIPPING_RATE_LIMIT: '60/60',
    BFF_SHOPIFY_SECRET: SECRET,
    BFF_HANDLING_DAYS: '1',
    BFF_CUTOFF: '14:00',
  });
  const direct = await startSandboxProcess();
  try {
    const answers: Promise<Answer>[] = [];
    const requests = seconds * 10;
    for (let k = 0; k < requests; k++) {
      answers.push(askShopify(bff.url, k % 200));
      await pause(100);
    }
    const done = await Promise.all(answers);
    const calls = await platformCalls(sandbox.url);
    const priced = done.filter((a) => a.status === 200).length;
    const backup = done.filter((a) => a.status === 503).length;
    const other = done.length - priced - backup;
    const late = done.filter((a) => a.ms > DEADLINE_MS + SLACK_MS).length;
    const slowest = Math.round(Math.max(...done.map((a) => a.ms)));

    // A cart the storm priced: its callback is answered from the quote core's cache. Both sides at one fixed rate,
    // 20 times the storm's (at saturation a p99 measures the queue of the busier server, not the hop).
    const cachedBody = shopifyBody(0);
    const signature = shopifyHmac(SECRET, JSON.stringify(cachedBody));
    const { a, b } = await sideBySide(
      rounds,
      () =>
        load(
          `${bff.url}/checkout/shopify/rates`,
          cachedBody,
          { [SHOPIFY_HMAC_HEADER]: signature },
          loadSeconds,
          LOAD_RATE,
        ),
      () =>
        load(
          `${direct.url}/v1/rates`,
          { destinationCep: cart(0).cep, items: cart(0).items },
          { authorization: 'Bearer mk_test_demo' },
          loadSeconds,
          LOAD_RATE,
        ),
    );
    const overP99 = round(a.p99 - b.p99);
    return {
      id: 12,
      figure: `checkout storm: ${requests} Shopify callbacks in ${seconds} s over 200 distinct carts (each asked 3 times), platform limit 60/60, deadline ${DEADLINE_MS} ms; then a cached callback at ${LOAD_RATE} req/s`,
      value: `${priced} priced, ${backup} × 503 (backup rates), ${other} other; ${late} after the deadline (slowest ${slowest} ms); ${calls} platform calls; cached callback p50 ${a.p50} ms, p99 ${a.p99} ms (${a.rps} req/s)`,
      comparedWith: `the sandbox's /v1/rates directly: p50 ${b.p50} ms, p99 ${b.p99} ms (${b.rps} req/s); the cached callback's p99 ${overP99 >= 0 ? '+' : ''}${overP99} ms over it`,
      goal: `0 answers after the deadline, 0 other than 200/503, platform calls ≤ 60 a minute, cached p99 ≤ 5 ms over the direct quote's`,
      met:
        late === 0 && other === 0 && calls <= 60 * Math.ceil(seconds / 60) && overP99 <= 5 && a.errors === 0,
      data: {
        requests,
        seconds,
        priced,
        backup,
        other,
        late,
        slowestMs: slowest,
        platformCalls: calls,
        cached: a,
        direct: b,
      },
    };
  } finally {
    await Promise.all([bff.stop(), sandbox.stop(), direct.stop()]);
  }
}

/**
 * Figure 13 (issue 38, finding 3): for `seconds`, an agent quotes distinct carts as fast as it can (4 calls at a time)
 * beside a checkout storm (5 Shopify callbacks a second over 100 carts) and shoppers — one every 8 s quotes from the
 * browser with the public key and has the store's checkout server verify the choice through the BFF. The platform
 * allows 60 quotes a minute; the BFF keeps half for browsers, and of its 30 the storm's share takes 15 and the
 * agent's 7: the 8 left are the verifications' room. Shoppers must all be served; the agent held at its share.
 */
export async function measureQuoteFairShare(seconds = 60): Promise<Figure> {
  const sandbox = await startSandboxProcess('60/60');
  const bff = await startBffProcess(sandbox.url, {
    SHIPPING_RATE_LIMIT: '60/60',
    BFF_SHOPIFY_SECRET: SECRET,
    BFF_CHECKOUT_TOKENS: CHECKOUT_TOKEN,
  });
  const agent = new Client({ name: 'bench-agent', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${BENCH_AGENT_TOKEN}` } },
    }),
  );
  try {
    const startedAt = performance.now();
    const until = startedAt + seconds * 1000;
    let serial = 0;
    const agentTally = { served: 0, refused: 0, failed: 0 };
    const agentLoop = async () => {
      while (performance.now() < until) {
        serial += 1;
        const result = await agent.callTool({
          name: 'get_shipping_rates',
          arguments: {
            destinationCep: '20040-020',
            items: [{ name: `agent ${serial}`, quantity: 1, unitPriceBRL: 50 + serial, weightKg: 0.5 }],
          },
        });
        const reason = ReasonOf.safeParse(result.structuredContent).data?.reason;
        if (!result.isError) agentTally.served += 1;
        else if (reason === 'rate_limited') agentTally.refused += 1;
        else agentTally.failed += 1;
      }
    };
    const storm: Promise<Answer>[] = [];
    const shoppers: Promise<{ browser: number; verified: boolean }>[] = [];
    const traffic = (async () => {
      for (let tick = 0; performance.now() < until; tick++) {
        storm.push(askShopify(bff.url, 1000 + (tick % 100)));
        if (tick % 40 === 20) shoppers.push(shopper(sandbox.url, bff.url, tick));
        await pause(200);
      }
    })();
    await Promise.all([agentLoop(), agentLoop(), agentLoop(), agentLoop(), traffic]);
    const served = await Promise.all(shoppers);
    const checkouts = await Promise.all(storm);
    const calls = await platformCalls(sandbox.url);
    const browserOk = served.filter((s) => s.browser === 200).length;
    const verified = served.filter((s) => s.verified).length;
    const priced = checkouts.filter((a) => a.status === 200).length;
    // The shares count in fixed windows from a caller's first quote: a run a little over a minute spans two.
    const windows = Math.ceil((performance.now() - startedAt) / 60_000);
    const agentShare = 7 * windows;
    return {
      id: 13,
      figure: `quote fair share: an agent quoting distinct carts as fast as it can (4 at a time) for ${seconds} s, beside a checkout storm (5 Shopify callbacks a second over 100 carts) and a shopper every 8 s (a browser quote, then the checkout's verify); platform limit 60/60`,
      value: `shoppers: ${browserOk} of ${served.length} browser quotes and ${verified} of ${served.length} verifications served; checkouts: ${priced} of ${checkouts.length} priced; the agent: ${agentTally.served} quotes served, ${agentTally.refused} refused with when to retry; ${calls} platform calls`,
      comparedWith:
        'the attack round on the previous main (issue 38): 70 preview_label calls in 0.9 s took the store’s 60 quotes and the next 5 of 5 shopper quotes got 429',
      goal: `every shopper served (browser and verify); the agent at most its share (7 a minute: ${agentShare} in ${windows} windows); platform calls ≤ 60 a minute`,
      met:
        browserOk === served.length &&
        verified === served.length &&
        agentTally.served <= agentShare &&
        calls <= 60 * windows,
      data: {
        seconds,
        windows,
        shoppers: served.length,
        browserOk,
        verified,
        checkouts: checkouts.length,
        priced,
        agent: agentTally,
        platformCalls: calls,
      },
    };
  } finally {
    await agent.close();
    await Promise.all([bff.stop(), sandbox.stop()]);
  }
}

/** One shopper: the calculator's quote from the browser (public key), then the checkout server's verify of PAC. */
async function shopper(sandboxUrl: string, bffUrl: string, n: number) {
  const { cep, items } = cart(5000 + n);
  const browser = await fetch(`${sandboxUrl}/v1/rates`, {
    method: 'POST',
    headers: { authorization: 'Bearer pk_test_demo', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationCep: cep, items }),
  });
  await browser.arrayBuffer();
  const verify = await fetch(`${bffUrl}/api/rates/verify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CHECKOUT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cep, items, serviceId: 'correios-pac' }),
  });
  const answer = (await verify.json()) as { available?: boolean };
  return { browser: browser.status, verified: verify.status === 200 && answer.available === true };
}
