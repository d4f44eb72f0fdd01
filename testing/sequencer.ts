import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files start in: vitest's (the longest first by the durations it cached from the last run, else the
 * biggest file first), except that on a fresh clone, with nothing cached, the browser files go first — they are the
 * longest (20–90 s each against a second or two for most files) but several of them are a few lines over a shared
 * suite (e2e/support/), so their size says nothing. Starting the longest first keeps the last worker from running one
 * alone at the end.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const unknownBrowserFile = (spec: TestSpecification) =>
      spec.moduleId.includes('/e2e/') && !this.ctx.cache.getTestSpecificationResult(spec);
    return [...sorted.filter(unknownBrowserFile), ...sorted.filter((spec) => !unknownBrowserFile(spec))];
  }
}
