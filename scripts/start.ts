/**
 * `npm start`: builds the widget if missing, starts the sandbox and the BFF wired together with the demo keys, and
 * prints the URLs. Ctrl-C stops everything it started.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import * as z from 'zod/mini';
import { runCheckoutCommand } from '../bff/checkout/registration.ts';
import { ConfigError, EnvSchema, parseConfig } from '../bff/config.ts';
import { SANDBOX_NUVEMSHOP_APP_SECRET, SANDBOX_SHOPIFY_APP_SECRET } from '../sandbox/checkouts/accounts.ts';
import { parseSandboxConfig } from '../sandbox/config.ts';
import { parseEnv } from '../shared/env.ts';
import { quotedServices } from './checkout.ts';
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

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
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

if (
  !existsSync(`${ROOT}dist/widget/shipping-widget.js`) ||
  !existsSync(`${ROOT}dist/widget/shipping-tracking.js`) ||
  !existsSync(`${ROOT}dist/desk/desk.js`)
) {
  out('Building the widget (dist/widget/) and the label desk’s script (dist/desk/)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) fail('the widget build failed');
}

const agentToken = env.DEMO_AGENT_TOKEN ?? `demo-agent-${randomBytes(12).toString('hex')}`;
// The merchant's password for the OAuth consent page and /admin: generated per run unless given.
const adminPassword = env.BFF_ADMIN_PASSWORD ?? `demo-${randomBytes(12).toString('base64url')}`;
// The demo store's branding on /track (the README's picture of it): its name, the icon as logo, a link back to the
// demo storefront. The link and the logo need the BFF's own origin, known beforehand unless BFF_PORT is 0.
const demoOrigin = bffPort === 0 ? undefined : `http://127.0.0.1:${bffPort}`;
const branding: Record<string, string> = { BFF_STORE_NAME: env.BFF_STORE_NAME ?? 'Loja Demo' };
if (demoOrigin) {
  branding.BFF_STORE_URL = env.BFF_STORE_URL ?? `${demoOrigin}/demo/`;
  branding.BFF_STORE_LOGO_URL = env.BFF_STORE_LOGO_URL ?? `${demoOrigin}/favicon.svg`;
}
const sandboxUrl = await startChild('sandbox', 'sandbox/main.ts', { SANDBOX_PORT: String(sandboxPort) });
// The sandbox's Shopify shop and Nuvemshop store (sandbox/README.md), whose emulated checkouts call the BFF's
// callbacks; the store's handling day and 14:00 cut-off, as the demo pages' calculators have them.
const checkoutEnv: Record<string, string> = {
  BFF_HANDLING_DAYS: env.BFF_HANDLING_DAYS ?? '1',
  BFF_CUTOFF: env.BFF_CUTOFF ?? '14:00',
  BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
  BFF_SHOPIFY_SHOP: 'loja-demo.myshopify.com',
  BFF_SHOPIFY_TOKEN: 'shpat_test_demo_0000000001',
  BFF_SHOPIFY_API_URL: `${sandboxUrl}/shopify/loja-demo.myshopify.com`,
  BFF_NUVEMSHOP_CALLBACK_SECRET: randomBytes(24).toString('hex'),
  BFF_NUVEMSHOP_STORE_ID: '1001',
  BFF_NUVEMSHOP_TOKEN: 'nuvem_test_demo_000000001',
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
  ]),
  BFF_ADMIN_PASSWORD: adminPassword,
  BFF_DATA_DIR: env.BFF_DATA_DIR ?? '.data',
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

/** The BFF's callbacks registered with the sandbox's Shopify and Nuvemshop, as `npm run checkout -- register` does. */
async function registerCheckouts(): Promise<string[]> {
  const config = parseConfig({
    ...env,
    ...checkoutEnv,
    SHIPPING_API_URL: sandboxUrl,
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    BFF_PUBLIC_URL: bffUrl,
  });
  const lines: string[] = [];
  for (const platform of ['shopify', 'nuvemshop'] as const) {
    const result = await runCheckoutCommand('register', platform, {
      config,
      services: () => quotedServices(config),
    });
    if (!result.ok) lines.push(`[checkout] ${result.lines.join(' ')}`);
  }
  return lines;
}
const checkoutProblems = await registerCheckouts().catch((error: unknown) => [
  `[checkout] the emulated checkouts could not be registered: ${(error as Error).message}`,
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
out(
  `  Admin password   ${adminPassword}  (the desk, the OAuth consent page, agents at ${bffUrl}/admin/agents)`,
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
