/**
 * The vitest tags of this repository (vitest refuses an undeclared tag). Both `vite.config.ts` and the mutation
 * config declare them from here.
 *
 * - `slow`: the test waits on real time (a deadline, a backoff, a window that must end), a second or more. It runs in
 *   `npm test`; `npm run mutation` leaves it out, because a mutant covered by it would pay that wait, and a faster
 *   test states the same behaviour (each tagged test says which in a comment).
 */
export const TEST_TAGS = [
  {
    name: 'slow',
    description:
      'waits on real time; left out of mutation runs, where a faster test states the same behaviour',
  },
];
