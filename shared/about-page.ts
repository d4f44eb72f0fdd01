import { escapeHtml } from './html.ts';
import { pageHeaders } from './security/page-headers.ts';

/**
 * The small page a browser gets where a server answers machines (the sandbox's `/`, `GET /mcp` on both servers): what
 * this address is and where to go, instead of a JSON error. Only for a request that asks for HTML (a browser's
 * `Accept`); API clients keep their JSON. No script, no style: the browser's own, in light or dark.
 */
export interface AboutPage {
  title: string;
  lead: string;
  /** Each line: a text and, optionally, an address or path shown as code. */
  lines: readonly { text: string; code?: string }[];
}

/** Whether a request's `Accept` names HTML (a browser's navigation), not an API client's JSON or event stream. */
export function wantsPage(accept: string | undefined): boolean {
  return /(^|,)\s*text\/html/i.test(accept ?? '');
}

/** The page's HTML (every value escaped). */
export function aboutPageHtml(page: AboutPage): string {
  const items = page.lines
    .map(
      (line) =>
        `<li>${escapeHtml(line.text)}${line.code ? ` <code>${escapeHtml(line.code)}</code>` : ''}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.lead)}</p>
<ul>
${items}
</ul>
</main>
</body>
</html>
`;
}

/** The headers the page goes with: the servers' own page headers (shared/security/page-headers.ts). */
export const ABOUT_PAGE_HEADERS: Record<string, string> = {
  ...pageHeaders(),
  'Content-Type': 'text/html; charset=utf-8',
};
