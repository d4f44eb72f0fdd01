import { posix } from 'node:path';

/** A link found in a markdown file: where it points, and the line it is on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** Fenced code blocks and inline code spans blanked out (newlines kept, so line numbers stay right). */
function withoutCode(text: string): string {
  const blank = (match: string) => match.replace(/[^\n]/g, ' ');
  return text.replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, blank).replace(/`[^`\n]*`/g, blank);
}

/**
 * Every link of a markdown text, outside code: inline links and images `[text](target "title")`, `<target>` forms,
 * reference definitions `[name]: target`, and `src`/`href` attributes of inline HTML.
 */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  const lines = withoutCode(text).split('\n');
  lines.forEach((content, index) => {
    const found = [
      ...[...content.matchAll(/\]\(\s*<([^>]*)>[^)]*\)/g)].map((m) => m[1]),
      ...[...content.matchAll(/\]\(\s*([^\s)<][^\s)]*)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
      ...[...content.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g)].map((m) => m[1]),
      ...[...content.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
    ];
    for (const target of found) if (target) links.push({ target, line: index + 1 });
  });
  return links;
}

/** The anchors GitHub gives a markdown file's headings (lower case, punctuation dropped, a `-` per space). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(text).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (!heading) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function withoutCodeBlocks(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, (match) => match.replace(/[^\n]/g, ' '));
}

/**
 * What is wrong with the links of the repository's markdown files, one message per broken link. `tracked` is every
 * file of the repository (`git ls-files`), `read` gives a tracked file's text. A relative link must name a tracked
 * file, or a folder holding one, inside the repository (not above it, like `../shared`); an absolute path or a
 * `file:` URL is refused; an anchor into a markdown file must be one of its headings. Web links (`http:`, `https:`,
 * `mailto:`) are not followed.
 */
export function brokenLinks(tracked: ReadonlySet<string>, read: (file: string) => string): string[] {
  const problems: string[] = [];
  const isFolder = (path: string) => [...tracked].some((file) => file.startsWith(`${path}/`));
  for (const file of [...tracked].filter((name) => name.endsWith('.md'))) {
    for (const { target, line } of markdownLinks(read(file))) {
      const where = `${file}:${line}: ${target}`;
      if (/^(https?:|mailto:)/i.test(target)) continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/') || target.startsWith('\\')) {
        problems.push(`${where} is not a relative link to a file of the repository`);
        continue;
      }
      const [path = '', anchor] = target.split('#', 2);
      const resolved = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path)));
      const inside = resolved.replace(/\/$/, '');
      if (inside === '..' || inside.startsWith('../')) {
        problems.push(`${where} points outside the repository`);
        continue;
      }
      if (!tracked.has(inside) && !isFolder(inside)) {
        problems.push(`${where} names no file of the repository`);
        continue;
      }
      if (
        anchor &&
        inside.endsWith('.md') &&
        tracked.has(inside) &&
        !headingAnchors(read(inside)).has(anchor)
      ) {
        problems.push(`${where} names no heading of ${inside}`);
      }
    }
  }
  return problems;
}

/** A section a code comment cites, as `docs/security.md, "Logins"` or `sandbox/README.md "Control API"` do. */
export interface Citation {
  file: string;
  section: string;
  line: number;
}

/**
 * The sections a source file's comments cite, by the page's path from the repository's root (a bare `README` is the
 * root README). A citation may run over two comment lines. Paths outside the repository's docs (the team's
 * ARCHITECTURE.md) are not citations of a page here.
 */
export function citedSections(source: string): Citation[] {
  const citations: Citation[] = [];
  const lines = source.split('\n');
  // Each line with the next one's comment text after it, so a citation broken over two lines is whole.
  lines.forEach((text, index) => {
    const next = (lines[index + 1] ?? '').replace(/^\s*(\*|\/\/|#)\s?/, '');
    const joined = `${text} ${next}`;
    for (const match of joined.matchAll(
      /((?:[\w.-]+\/)*README|docs\/[\w/.-]+|CONTRIBUTING)(?:\.md)?,?\s+"([^"]+)"/g,
    )) {
      if ((match.index ?? 0) >= text.length) continue;
      const path = match[1] ?? '';
      citations.push({
        file: path.endsWith('.md') ? path : `${path}.md`,
        section: match[2] ?? '',
        line: index + 1,
      });
    }
  });
  return citations;
}

/** A heading's text as a reader sees it: no backticks, links kept as their text, no section number, lower case. */
function headingTexts(markdown: string): string[] {
  return withoutCodeBlocks(markdown)
    .split('\n')
    .map((line) => /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1])
    .filter((heading): heading is string => heading !== undefined)
    .map((heading) =>
      heading
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/^\d+(\.\d+)*\.?\s+/, '')
        .replaceAll('`', '')
        .toLowerCase(),
    );
}

/**
 * What is wrong with the sections the code's comments cite, one message per citation: the page must be a tracked file
 * and have a heading that starts with the cited words (`"Events"` cites "Events (bubbling, composed)").
 */
export function brokenCitations(
  sources: ReadonlyMap<string, string>,
  tracked: ReadonlySet<string>,
  read: (file: string) => string,
): string[] {
  const problems: string[] = [];
  for (const [name, source] of sources) {
    for (const { file, section, line } of citedSections(source)) {
      const where = `${name}:${line}: ${file}, "${section}"`;
      if (!tracked.has(file)) {
        problems.push(`${where} cites no file of the repository`);
        continue;
      }
      const wanted = section.replaceAll('`', '').toLowerCase();
      if (!headingTexts(read(file)).some((heading) => heading.startsWith(wanted)))
        problems.push(`${where} names no heading of ${file}`);
    }
  }
  return problems;
}
