/**
 * The store platforms' checkouts, from the command line (docs/checkout/):
 *
 *   npm run checkout -- register shopify|nuvemshop
 *   npm run checkout -- status shopify|nuvemshop
 *   npm run checkout -- unregister shopify|nuvemshop
 *
 * Reads the BFF's configuration (environment and `.env`, like the BFF): BFF_PUBLIC_URL (the callback's origin, https),
 * and for Shopify BFF_SHOPIFY_SHOP, BFF_SHOPIFY_TOKEN, BFF_SHOPIFY_SECRET; for Nuvemshop BFF_NUVEMSHOP_STORE_ID,
 * BFF_NUVEMSHOP_TOKEN, BFF_NUVEMSHOP_CALLBACK_SECRET (and SHIPPING_SECRET_KEY: a sample quote names the options).
 * BFF_SHOPIFY_API_URL / BFF_NUVEMSHOP_API_URL point it at the sandbox's emulation first.
 *
 * Exit 0 when done; 1 with a plain message when the platform (or a precondition) refuses; 2 for a bad command line.
 */
import {
  type CheckoutCommand,
  type CheckoutPlatform,
  type QuotedService,
  runCheckoutCommand,
} from '../bff/checkout/registration.ts';
import { type BffConfig, ConfigError, parseConfig } from '../bff/config.ts';
import { createLogger } from '../bff/logger.ts';
import { createRestClient } from '../bff/upstream/rest-client.ts';

const USAGE = `usage:
  npm run checkout -- register shopify|nuvemshop
  npm run checkout -- status shopify|nuvemshop
  npm run checkout -- unregister shopify|nuvemshop`;

const COMMANDS: readonly CheckoutCommand[] = ['register', 'status', 'unregister'];
const PLATFORMS: readonly CheckoutPlatform[] = ['shopify', 'nuvemshop'];

/** Two destinations far apart (São Paulo and Acre), so every service the store quotes shows in one of them. */
const SAMPLE_CEPS = ['01310-100', '69900-000'];

/**
 * The services the store quotes, named as the checkout will name them: a sample quote of 1 kg to two CEPs, and the
 * services of `BFF_SERVICE_CODES` the quotes did not name.
 */
export async function quotedServices(config: BffConfig): Promise<QuotedService[]> {
  const client = createRestClient({
    apiUrl: config.apiUrl,
    secretKey: config.secretKey,
    logger: createLogger({ level: 'silent' }),
    retries: 1,
  });
  const found = new Map<string, string>();
  for (const destinationCep of SAMPLE_CEPS) {
    const quote = await client.rates({
      destinationCep,
      items: [{ name: 'amostra', quantity: 1, unitPriceBRL: 1, weightKg: 1 }],
    });
    for (const rate of quote.rates) found.set(rate.serviceId, rate.label);
  }
  for (const serviceId of Object.keys(config.serviceCodes))
    if (!found.has(serviceId)) found.set(serviceId, serviceId);
  return [...found].map(([serviceId, label]) => ({ serviceId, label }));
}

const isCommand = (value: string | undefined): value is CheckoutCommand =>
  COMMANDS.some((command) => command === value);
const isPlatform = (value: string | undefined): value is CheckoutPlatform =>
  PLATFORMS.some((platform) => platform === value);

async function main(args: string[]): Promise<number> {
  const [command, platform] = args;
  if (!isCommand(command) || !isPlatform(platform) || args.length > 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let config: BffConfig;
  try {
    config = parseConfig();
  } catch (error) {
    process.stderr.write(
      `npm run checkout: ${error instanceof ConfigError ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const result = await runCheckoutCommand(command, platform, {
    config,
    services: () => quotedServices(config),
  }).catch((error: unknown) => ({
    ok: false,
    lines: [`The platform could not be quoted for the services to register: ${(error as Error).message}`],
  }));
  for (const line of result.lines) (result.ok ? process.stdout : process.stderr).write(`${line}\n`);
  return result.ok ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
