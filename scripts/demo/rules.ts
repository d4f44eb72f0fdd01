import { ShippingRulesStore } from '../../bff/rules/rules-store.ts';
import type { Rule } from '../../shared/shipping-rules.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';

/**
 * The demo store's two shipping rules (docs/shipping-rules.md), written by `npm start` into the demo's ledger before
 * the BFF opens it: PAC at half price to the South and Southeast, and R$ 3 of packing on SEDEX. The demo pages show
 * them in force on the calculator and at the emulated checkouts; `/admin/rules` edits them.
 */
export const DEMO_RULES: Rule[] = [
  {
    id: 'pac-sul-sudeste',
    when: { ufs: ['SP', 'RJ', 'MG', 'ES', 'PR', 'SC', 'RS'], services: ['correios-pac'] },
    then: { markupPercent: -50 },
  },
  { id: 'embalagem-sedex', when: { services: ['correios-sedex'] }, then: { markupBRL: 3 } },
];

export async function seedDemoRules(dataDir: string): Promise<void> {
  const sql = new SqliteSql({ dataDir, file: 'labels.sqlite' });
  try {
    const store = new ShippingRulesStore(sql);
    await store.ready;
    await store.write(DEMO_RULES, 'npm start (the demo store)');
  } finally {
    await sql.close();
  }
}
