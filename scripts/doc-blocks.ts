/** A shell block of a markdown page: the line its fence opens on, and how the page says it is checked. */
export interface ShellBlock {
  line: number;
  /** `<!-- tested: name -->` on the line right above the fence: the test that runs it (by that name). */
  tested?: string;
  /** `_not run: reason_` on the nearest line above the fence or below its end: why no test runs it. */
  notRun?: string;
}

const SHELL_FENCE = /^```(?:sh|bash|shell|console|zsh)\s*$/;
const TESTED = /^<!-- tested: (\S+) -->$/;
const NOT_RUN = /^_not run: (.+)_$/;

/** The nearest non-empty line from `from` stepping by `step`, or '' past either end. */
function nearest(lines: readonly string[], from: number, step: 1 | -1): string {
  for (let i = from; i >= 0 && i < lines.length; i += step) {
    const text = (lines[i] ?? '').trim();
    if (text !== '') return text;
  }
  return '';
}

/**
 * Every ```sh / ```bash block of a markdown text with its mark (docs/testing.md, "Documentation that is run"): a
 * block is either run by a test, named by `<!-- tested: name -->` right above it (the extractors read the block right
 * after that comment), or says why not with `_not run: reason_` just above or just below it.
 */
export function shellBlocks(text: string): ShellBlock[] {
  const lines = text.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (!line.startsWith('```')) continue;
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end += 1;
    if (SHELL_FENCE.test(line)) {
      const tested = TESTED.exec((lines[i - 1] ?? '').trim())?.[1];
      const notRun =
        NOT_RUN.exec(nearest(lines, i - 1, -1))?.[1] ?? NOT_RUN.exec(nearest(lines, end + 1, 1))?.[1];
      blocks.push({ line: i + 1, ...(tested ? { tested } : {}), ...(notRun ? { notRun } : {}) });
    }
    i = end;
  }
  return blocks;
}
