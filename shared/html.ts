/** HTML text with `& < > " '` escaped: every value a page shows or carries in an attribute goes through it. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A tagged template whose interpolations are escaped unless they are `Html` built by it. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) {
      if (part === undefined || part === null || part === false) continue;
      out += part instanceof Html ? part.text : escapeHtml(String(part));
    }
    out += strings[i + 1] ?? '';
  });
  return new Html(out);
}

/**
 * A whole pt-BR page: no inline script or style (served with `pageHeaders`, shared/security/page-headers.ts); the
 * stylesheet is `cssHref`. The referrer policy matches the headers' (`same-origin`: form posts carry their Origin).
 */
export function page(title: string, body: Html, cssHref: string): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="stylesheet" href="${cssHref}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.text;
}
