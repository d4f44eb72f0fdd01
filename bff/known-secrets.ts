import { isLoopbackUrl } from '../shared/security/loopback.ts';

/**
 * Secrets anyone can read (issue 48, finding 8): a known admin password is the desk, a known Shopify or Nuvemshop
 * secret forges paid orders, a known link or webhook secret forges links and events. At start the BFF refuses, naming
 * the variable (never the value), every secret below that is a placeholder (`REPLACE…` anywhere in it), a value from the
 * docs' examples or `.env.example`, a sandbox fixture, or `npm start`'s demo secret — unless the platform is a sandbox
 * on this machine (both platform URLs on loopback), where they are the fixtures they were written for.
 *
 * `known-secrets.test.ts` reads docs/, README.md, sandbox/README.md, .env.example, the sandbox's fixtures and
 * scripts/start.ts, and fails when one of them shows a secret value this list does not hold.
 */
export const KNOWN_SECRETS: readonly string[] = [
  // The docs' examples (docs/configuration.md).
  'correct horse battery',
  '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  // scripts/start.ts's demo secrets (docs/demo.md lists them).
  'demo-senha-loja-demo',
  'demo-agent-token-loja-demo',
  'demo-agent-approval-loja-demo',
  `whsec_${Buffer.from('frete-kit demo webhook secret 32').toString('base64')}`,
  // The sandbox's fixtures (sandbox/README.md, sandbox/checkouts/accounts.ts).
  'shpss_sandbox_frete_kit_app_0001',
  'nuvem_sandbox_frete_kit_app_secret_01',
  'shpat_test_demo_0000000001',
  'nuvem_test_demo_000000001',
];

/** Whether a secret's value is one anyone can read: a placeholder, or a published example or fixture. */
export function isKnownSecret(value: string): boolean {
  return /REPLACE/i.test(value) || KNOWN_SECRETS.includes(value.trim());
}

/** The secret variables checked, with every value each holds (a list of tokens holds several). */
export type SecretValues = Record<string, readonly string[]>;

/**
 * The variable holding a known secret, when the platform is not a sandbox on this machine; undefined when none does.
 * `platformUrls`: `SHIPPING_API_URL` and `SHIPPING_MCP_URL` as the BFF will call them.
 */
export function knownSecretVariable(
  secrets: SecretValues,
  platformUrls: readonly string[],
): string | undefined {
  if (platformUrls.every(isLoopbackUrl)) return undefined;
  for (const [variable, values] of Object.entries(secrets)) if (values.some(isKnownSecret)) return variable;
  return undefined;
}
