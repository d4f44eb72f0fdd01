import { afterEach, describe, expect, it } from 'vitest';
import type { Rule } from '../../../shared/shipping-rules.ts';
import type { Sql } from '../../../shared/sql/sql.ts';
import { ShippingRulesStore } from '../rules-store.ts';

const free: Rule[] = [{ id: 'gratis', when: { ufs: ['SP'] }, then: { free: true } }];
const markup: Rule[] = [{ id: 'embalagem', then: { markupBRL: 3 } }];

/**
 * The shipping rules' store on one database, as two instances see it: `open` answers two connections to one fresh
 * database (two BFF instances sharing it).
 */
export function describeRulesStore(name: string, open: () => Promise<[Sql, Sql]>): void {
  describe(`ShippingRulesStore on ${name}`, () => {
    let connections: Sql[] = [];
    afterEach(async () => {
      await Promise.all(connections.map((sql) => sql.close()));
      connections = [];
    });
    async function instances(cacheMs: number, now: () => number) {
      const [a, b] = await open();
      connections = [a, b];
      const one = new ShippingRulesStore(a, { cacheMs, now });
      const two = new ShippingRulesStore(b, { cacheMs, now });
      await Promise.all([one.ready, two.ready]);
      return [one, two] as const;
    }

    it('answers no rules (version 0) before any is written', async () => {
      const [one] = await instances(0, Date.now);
      expect(await one.current()).toEqual({ version: 0, rules: [] });
    });

    it('gives writes from two instances at once distinct versions, the last one in force on both', async () => {
      const [one, two] = await instances(0, Date.now);
      const versions = await Promise.all([
        one.write(free, 'admin (a)'),
        two.write(markup, 'admin (b)'),
        one.write(markup, 'admin (a)'),
        two.write(free, 'admin (b)'),
      ]);
      expect(new Set(versions).size).toBe(4);
      expect([...versions].sort()).toEqual([1, 2, 3, 4]);
      const last = await one.current();
      expect(last.version).toBe(4);
      expect(await two.current()).toEqual(last);
      const changes = await two.changes();
      expect(changes.map((change) => change.version)).toEqual([4, 3, 2, 1]);
      expect(changes[0]?.before).toEqual(changes[1]?.after);
      expect(changes[3]?.before).toEqual([]);
    });

    it('shows another instance’s write once the cache period is over, and its own at once', async () => {
      let now = 1_000_000;
      const [one, two] = await instances(30_000, () => now);
      expect((await two.current()).version).toBe(0);
      await one.write(free, 'admin (a)');
      expect(await one.current()).toEqual({ version: 1, rules: free });
      now += 29_999;
      expect((await two.current()).version).toBe(0);
      now += 1;
      expect(await two.current()).toEqual({ version: 1, rules: free });
    });
  });
}
