import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EnvSchema, parseConfig } from '../bff/config.ts';
import { parseSandboxConfig } from '../sandbox/config.ts';
import { parseEnv } from '../shared/env.ts';
import { configurationProblems, documentedVariables, type VariableReader } from './configuration-doc.ts';

// docs/configuration.md against the schemas the servers parse their environment with: every variable documented
// once, with its type, default, rule and example, each default the one the code applies, each example accepted.

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const PAGE = read('docs/configuration.md');

const bff: VariableReader = {
  names: Object.keys(EnvSchema.shape),
  read: (name, raw) => {
    const schema = EnvSchema.shape[name as keyof typeof EnvSchema.shape];
    return parseEnv(z.object({ [name]: schema }), { [name]: raw })[name];
  },
  applied: (name, raw) => parseConfig({ SHIPPING_SECRET_KEY: 'mk_test_doc', [name]: raw }),
};

/** The sandbox's variables, as `bff/start.test.ts` finds them for .env.example: the names its config file reads. */
const sandbox: VariableReader = {
  names: [...new Set(read('sandbox/config.ts').match(/\bSANDBOX_[A-Z_]+[A-Z]\b/g))],
  read: (name, raw) => parseSandboxConfig(raw === undefined ? {} : { [name]: raw }),
  applied: (name, raw) => parseSandboxConfig(raw === undefined ? {} : { [name]: raw }),
};

describe('docs/configuration.md', () => {
  it('documents every variable of both schemas with the default the code applies and an example it accepts', () => {
    expect(bff.names.length).toBeGreaterThan(40);
    expect(sandbox.names).toContain('SANDBOX_PUBLIC_URL');
    expect(configurationProblems(PAGE, [bff, sandbox])).toEqual([]);
  });

  it('checks most defaults against the code, not only their presence', () => {
    const checked = documentedVariables(PAGE).filter(({ default: text }) =>
      /^(`|none\b|required\b)/.test(text ?? ''),
    );
    expect(checked.length).toBeGreaterThan(45);
  });

  it('tells each kind of mistake, so the check above can fail', () => {
    const broken = PAGE.replace('Default: `4000`', 'Default: `8080`')
      .replace('Example: `BFF_STALL_DAYS=3`', 'Example: `BFF_STALL_DAYS=90`')
      .replace('Example: `SANDBOX_AUTH=off`', 'Example: `SANDBOX_AUTH=none`')
      .replace('Rule: 0.5 to 0.99\\\n', '')
      .replace('### `BFF_CUTOFF`', '### `BFF_CUT_OFF`')
      .replace(/### `SANDBOX_LABEL_PDF_WAIT_MS`[\s\S]*?(?=### )/, '')
      .replace('Default: required', 'Default: none');
    expect(configurationProblems(broken, [bff, sandbox])).toEqual([
      expect.stringMatching(
        /^line \d+: SHIPPING_SECRET_KEY is refused unset, but not documented as required$/,
      ),
      expect.stringMatching(/^line \d+: BFF_PORT's default `8080` is not the one the code applies$/),
      expect.stringMatching(/^line \d+: BFF_CUT_OFF is read by no schema$/),
      expect.stringMatching(
        /^line \d+: BFF_STALL_DAYS's example is refused: BFF_STALL_DAYS must be a whole number/,
      ),
      expect.stringMatching(/^line \d+: BFF_PROMISE_QUANTILE has no Rule: line$/),
      expect.stringMatching(
        /^line \d+: SANDBOX_AUTH's example is refused: SANDBOX_AUTH must be keys or off$/,
      ),
      'BFF_CUTOFF is not documented',
      'SANDBOX_LABEL_PDF_WAIT_MS is not documented',
    ]);
  });
});
