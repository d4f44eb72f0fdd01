/**
 * `npm start`: builds the widget if missing, starts the sandbox and the BFF wired together with the demo keys, an
 * outbox where the shoppers' e-mails and the merchant's webhooks can be read, a few demo parcels that move, stall and
 * arrive in minutes on the sandbox's fast clock, and prints the URLs (docs/demo.md). Ctrl-C stops everything it
 * started.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, isIP } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as z from 'zod/mini';
import { ConfigError, EnvSchema } from '../bff/config.ts';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from '../sandbox/checkouts/accounts.ts';
import { parseSandboxConfig } from '../sandbox/config.ts';
import { parseEnv } from '../shared/env.ts';
import { isLoopbackHostname } from '../shared/security/loopback.ts';
import { type DemoInbox, startDemoInbox } from './demo/inbox.ts';
import { issueDemoParcels } from './demo/parcels.ts';
import { seedDemoRules } from './demo/rules.ts';
import { seedDemoHistory } from './demo/seed-history.ts';
import { DEMO_SHOP, installDemoStores } from './demo-installs.ts';
import { sendDemoOrders } from './demo-orders.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const env = process.env;
const out = (line = '') => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
};

/** The two ports, by the same rules the servers apply (a wrong value stops here, naming the variable). */
function ports(): { sandboxPort: number; bffPort: number } {
  try {
    const { BFF_PORT } = parseEnv(z.object({ BFF_PORT: EnvSchema.shape.BFF_PORT }), env);
    return { sandboxPort: parseSandboxConfig(env).port, bffPort: BFF_PORT };
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
}
const { sandboxPort, bffPort } = ports();
/** Where the demo's ledger lives: its own directory, which `npm start` resets (never `npm run bff`'s `.data`). */
const DEMO_DATA_DIR = '.data/demo';
/** The outbox's pages (the e-mails, the webhooks): `DEMO_INBOX_PORT`, or any free port beside a BFF on port 0. */
const inboxPort = Number(env.DEMO_INBOX_PORT ?? (bffPort === 0 ? 0 : 4020));
const children: ChildProcess[] = [];
let stopping = false;

/** Resolves when nothing listens on the port (0 is always free). */
function ensureFree(port: number, variable: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () =>
      fail(`port ${port} is already in use: stop what uses it, or set ${variable} to another port`),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** Starts `node <script>` and resolves with the URL it logs once listening; its other log lines are echoed. */
function startChild(name: string, script: string, childEnv: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { ...env, ...childEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let ready = false;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        // Every line kept beside the demo's ledger (the screen shows warnings only): .data/demo/<name>.log.
        if (logDir) appendFileSync(join(logDir, `${name}.log`), `${line}\n`);
        let entry: { msg?: string; url?: string; level?: number } = {};
        try {
          entry = JSON.parse(line);
        } catch {
          entry = { msg: line };
        }
        if (!ready && entry.url) {
          ready = true;
          resolve(entry.url);
          return;
        }
        if ((entry.level ?? 30) >= 40 || !ready) out(`[${name}] ${entry.msg ?? line}`);
      });
    }
    child.on('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`npm start: the ${name} stopped (exit ${code}); stopping everything\n`);
        void stop(1);
      }
    });
  });
}

let inbox: DemoInbox | undefined;
/** Where the children's whole logs go (the demo's data directory). */
let logDir: string | undefined;

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await inbox?.close().catch(() => undefined);
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));

await ensureFree(sandboxPort, 'SANDBOX_PORT');
await ensureFree(bffPort, 'BFF_PORT');
await ensureFree(inboxPort, 'DEMO_INBOX_PORT');

if (
  !existsSync(`${ROOT}dist/widget/shipping-widget.js`) ||
  !existsSync(`${ROOT}dist/widget/shipping-tracking.js`) ||
  !existsSync(`${ROOT}dist/desk/desk.js`)
) {
  out('Building the widget (dist/widget/) and the label desk’s script (dist/desk/)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) fail('the widget build failed');
}

/**
 * The demo's secrets: the same at every start (docs/demo.md lists them), so a saved MCP configuration keeps working;
 * each overridable. Only while the BFF listens on this machine alone: bound to another address without a password of
 * its own, the admin password is generated per run.
 */
const DEMO = {
  agentToken: 'demo-agent-token-loja-demo',
  approvalAgentToken: 'demo-agent-approval-loja-demo',
  adminPassword: 'demo-senha-loja-demo',
  webhookSecret: `whsec_${Buffer.from('frete-kit demo webhook secret 32').toString('base64')}`,
} as const;
const host = env.BFF_HOST?.trim() || '127.0.0.1';
const local = isLoopbackHostname(host) || (isIP(host) === 0 && host === 'localhost');
const agentToken = env.DEMO_AGENT_TOKEN ?? DEMO.agentToken;
const approvalAgentToken = env.DEMO_APPROVAL_AGENT_TOKEN ?? DEMO.approvalAgentToken;
const adminPassword =
  env.BFF_ADMIN_PASSWORD ?? (local ? DEMO.adminPassword : `demo-${randomBytes(12).toString('base64url')}`);
const webhookSecret = env.BFF_WEBHOOK_SECRET ?? DEMO.webhookSecret;
// The demo store's branding on /track (the README's picture of it): its name, the icon as logo, a link back to the
// demo storefront. The link and the logo need the BFF's own origin, known beforehand unless BFF_PORT is 0.
const demoOrigin = bffPort === 0 ? undefined : `http://127.0.0.1:${bffPort}`;
const branding: Record<string, string> = { BFF_STORE_NAME: env.BFF_STORE_NAME ?? 'Loja Demo' };
if (demoOrigin) {
  branding.BFF_STORE_URL = env.BFF_STORE_URL ?? `${demoOrigin}/demo/`;
  branding.BFF_STORE_LOGO_URL = env.BFF_STORE_LOGO_URL ?? `${demoOrigin}/favicon.svg`;
}

// The sandbox keeps its labels in memory: a ledger that outlives it would hold pre-postings it has forgotten (a reprint
// would answer 409). So the demo's own ledger (.data/demo) starts over with it, and says so; a BFF_DATA_DIR of your
// own is left as it is.
const dataDir = env.BFF_DATA_DIR ?? DEMO_DATA_DIR;
let seeded = 0;
if (env.BFF_DATA_DIR === undefined) {
  for (const file of ['labels.sqlite', 'labels.sqlite-wal', 'labels.sqlite-shm'])
    rmSync(join(ROOT, dataDir, file), { force: true });
  seeded = await seedDemoHistory(join(ROOT, dataDir));
  // The demo store's two shipping rules (scripts/demo/rules.ts), on its product, cart and checkout pages.
  await seedDemoRules(join(ROOT, dataDir));
}
// The sandbox's clock runs fast (a day in 30 s by default) and the BFF follows it (BFF_TEST_CLOCK=sandbox): a parcel
// moves, stalls and arrives in minutes.
const clockSpeed = env.SANDBOX_CLOCK_SPEED ?? '2880';
logDir = join(ROOT, dataDir);
mkdirSync(logDir, { recursive: true });
for (const name of ['sandbox', 'bff']) rmSync(join(logDir, `${name}.log`), { force: true });
inbox = await startDemoInbox({ port: inboxPort, webhookSecret });

const sandboxUrl = await startChild('sandbox', 'sandbox/main.ts', {
  SANDBOX_PORT: String(sandboxPort),
  SANDBOX_CLOCK_SPEED: clockSpeed,
});
// The sandbox's Shopify shop and Nuvemshop store (sandbox/README.md), whose emulated checkouts call the BFF's
// callbacks; the store's handling day and 14:00 cut-off, as the demo pages' calculators have them. Both stores connect
// as a merchant's do, by installing the app (installDemoStores below); the tokens' key is made in BFF_DATA_DIR.
const checkoutEnv: Record<string, string> = {
  BFF_HANDLING_DAYS: env.BFF_HANDLING_DAYS ?? '1',
  BFF_CUTOFF: env.BFF_CUTOFF ?? '14:00',
  BFF_SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
  BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
  BFF_SHOPIFY_SHOP: DEMO_SHOP,
  BFF_SHOPIFY_API_URL: `${sandboxUrl}/shopify/${DEMO_SHOP}`,
  BFF_NUVEMSHOP_CALLBACK_SECRET: randomBytes(24).toString('hex'),
  BFF_NUVEMSHOP_APP_ID: SANDBOX_NUVEMSHOP_APP_ID,
  BFF_NUVEMSHOP_STORE_ID: '1001',
  BFF_NUVEMSHOP_AUTH_URL: `${sandboxUrl}/nuvemshop`,
  BFF_NUVEMSHOP_API_URL: `${sandboxUrl}/nuvemshop/v1`,
  // The stores' paid orders come to the desk by webhook; addresses are looked up on the sandbox's CEP service.
  BFF_NUVEMSHOP_APP_SECRET: SANDBOX_NUVEMSHOP_APP_SECRET,
  BFF_CEP_SERVICES: `viacep:${sandboxUrl}/viacep/ws`,
};
const bffUrl = await startChild('bff', 'bff/main.ts', {
  ...branding,
  ...checkoutEnv,
  BFF_PORT: String(bffPort),
  SHIPPING_API_URL: sandboxUrl,
  SHIPPING_SECRET_KEY: 'mk_test_demo',
  SHIPPING_PUBLIC_KEY: 'pk_test_demo',
  BFF_AGENT_TOKENS: JSON.stringify([
    { token: agentToken, scopes: ['rates', 'tracking', 'labels'], name: 'demo-agent', maxLabelsPerDay: 50 },
    // A second agent whose policy sends every label to the merchant first (the desk's Approvals).
    {
      token: approvalAgentToken,
      scopes: ['rates', 'tracking', 'labels'],
      name: 'demo-agent-approval',
      approval: 'always',
    },
  ]),
  BFF_ADMIN_PASSWORD: adminPassword,
  BFF_DATA_DIR: dataDir,
  BFF_TEST_CLOCK: env.BFF_TEST_CLOCK ?? 'sandbox',
  // The fast clock moves the parcels quickly: the watcher may take half the tracking calls (it looks every 2 s).
  BFF_WATCH_SHARE: env.BFF_WATCH_SHARE ?? '0.5',
  BFF_SMTP_URL: env.BFF_SMTP_URL ?? inbox.smtpUrl,
  BFF_MAIL_FROM: env.BFF_MAIL_FROM ?? 'Loja Demo <pedidos@loja-demo.example>',
  // Every event e-mails the shopper in the demo, the stall too, so each step can be read in the outbox.
  BFF_MAIL_EVENTS:
    env.BFF_MAIL_EVENTS ??
    'shipment.status_changed,shipment.out_for_delivery,shipment.awaiting_pickup,shipment.delivered,shipment.returned,shipment.stalled,shipment.promise_at_risk,shipment.pickup_reminder',
  BFF_WEBHOOK_URL: env.BFF_WEBHOOK_URL ?? inbox.webhookUrl,
  BFF_WEBHOOK_SECRET: webhookSecret,
  // The sandbox's services (sandbox/README.md): a quote's serviceId becomes the contract code a label needs.
  BFF_SERVICE_CODES:
    env.BFF_SERVICE_CODES ?? JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  // A small shop's boxes, so plan_shipment and the desk's form plan something out of the box.
  BFF_BOXES:
    env.BFF_BOXES ??
    JSON.stringify([
      { id: 'P', comprimento: 20, largura: 15, altura: 10, tareGrams: 90, maxWeightGrams: 10_000 },
      { id: 'M', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 30_000 },
      { id: 'G', comprimento: 50, largura: 40, altura: 30, tareGrams: 450, maxWeightGrams: 30_000 },
    ]),
});
// Three orders to a shopper whose e-mails land in the outbox: one arrives, one stalls, one waits for pickup.
const parcels = await issueDemoParcels({
  bffUrl,
  sandboxUrl,
  agentToken,
  clockSpeed: Number(clockSpeed),
}).catch((error: unknown) => {
  out(
    `[demo] the demo parcels could not be issued: ${error instanceof Error ? error.message : String(error)}`,
  );
  return [];
});

// The stores connected through the apps' install links, as a merchant does (docs/checkout/shopify.md, nuvemshop.md):
// each install registers the carrier and the webhooks.
const checkoutProblems = await installDemoStores(bffUrl, sandboxUrl).catch((error: unknown) => [
  `[stores] the emulated stores could not be installed: ${(error as Error).message}`,
]);
// A few paid orders from the emulated stores, arriving on the desk by themselves (docs/orders.md).
const demoOrders = await sendDemoOrders(sandboxUrl).catch(() => 0);

const clientConfig = {
  mcpServers: {
    'loja-demo': {
      type: 'streamable-http',
      url: `${bffUrl}/mcp`,
      headers: { Authorization: `Bearer ${agentToken}` },
    },
  },
};
for (const line of checkoutProblems) out(line);
out();
out('frete-kit is running (Ctrl-C stops everything):');
out();
out(`  Demo storefront  ${bffUrl}/demo/`);
out(`  Product page     ${bffUrl}/demo/product.html`);
out(`  Cart page        ${bffUrl}/demo/cart.html`);
out(
  `  Checkouts        ${bffUrl}/demo/checkout.html  (the calculator beside the emulated Shopify and Nuvemshop checkouts)`,
);
out(
  `  Orders           ${bffUrl}/admin/orders  (${demoOrders} paid orders from the emulated stores; their tracking: ${sandboxUrl}/_sandbox/stores)`,
);
out(`  Tracking page    ${bffUrl}/track?codes=DG049186226BR,SW371675211BR,QB123456785BR,JT202600011BR`);
out(`  Sandbox          ${sandboxUrl}  (REST /v1/*, ${sandboxUrl}/openapi.json, MCP ${sandboxUrl}/mcp)`);
out(`  MCP for agents   ${bffUrl}/mcp`);
out(`  Agent token      ${agentToken}`);
out(`  Label desk       ${bffUrl}/admin/labels  (issue, print and settle labels in the browser)`);
out(`  Promise kept     ${bffUrl}/admin/promise  (on-time share per lane and service)`);
out(
  `  Stores           ${bffUrl}/admin/stores  (${DEMO_SHOP} and Nuvemshop 1001, connected by installing the app: tokens that renew themselves)`,
);
out(
  `  Admin password   ${adminPassword}  (the desk, the OAuth consent page, agents at ${bffUrl}/admin/agents)`,
);
out(`  Approval agent   ${approvalAgentToken}  (its labels wait for you at ${bffUrl}/admin/approvals)`);
out(`  Shopper e-mails  ${inbox.url}/mail`);
out(`  Webhooks         ${inbox.url}/webhooks`);
out();
out(
  `  The sandbox's clock runs ${clockSpeed}× (a day in ${Math.round(86_400 / Number(clockSpeed))} s) and the BFF follows it (BFF_TEST_CLOCK=sandbox).`,
);
if (parcels.length > 0)
  out(`  Demo parcels     ${parcels.map((p) => `${p.orderId} ${p.trackingCode} (${p.story})`).join(', ')}`);
out(
  env.BFF_DATA_DIR === undefined
    ? `  The demo ledger (${DEMO_DATA_DIR}) started over with the sandbox, which forgets its labels when it stops; ${seeded} delivered parcels of 90 days were written into its history, so the calculator's dates are learnt ones.`
    : `  BFF_DATA_DIR=${dataDir} is kept as it is; the sandbox starts empty, so labels of earlier runs cannot be printed again.`,
);
out();
out(`  An MCP client that speaks OAuth needs only the URL ${bffUrl}/mcp: it opens the login page,`);
out('  where the admin password above approves it and picks its scopes.');
out();
out('  MCP client configuration with a header (Streamable HTTP):');
for (const line of JSON.stringify(clientConfig, null, 2).split('\n')) out(`    ${line}`);
out();
out(
  `  Try: npx @modelcontextprotocol/inspector --cli ${bffUrl}/mcp --transport http --header "Authorization: Bearer ${agentToken}" --method tools/list`,
);
out();
