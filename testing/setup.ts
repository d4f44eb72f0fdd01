import { afterAll } from 'vitest';
import { closeLeftovers } from './processes.ts';

// Registered before the file's own hooks, so it runs after them (after-hooks run last-registered first): it closes only
// what the file's cleanup did not (testing/processes.ts).
afterAll(async () => {
  await closeLeftovers();
});
