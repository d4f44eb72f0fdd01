import { readFileSync, writeFileSync } from 'node:fs';
import { APPS, type AppName } from './resources.ts';

/**
 * The desk's palette (bff/desk/desk.css, its one home) for a page whose theme the host decides: the light variables
 * on `:root`, the dark ones under `data-theme="dark"` (SEP-1865 hosts send `theme` in the host context), and under
 * `prefers-color-scheme: dark` while the host has said nothing.
 */
export function appPalette(deskCss: string): string {
  const light = /^:root\s*\{([^}]*)\}/m.exec(deskCss)?.[1];
  const dark = /@media \(prefers-color-scheme: dark\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(deskCss)?.[1];
  if (!light || !dark) throw new Error('desk.css has no light and dark palette to share with the apps');
  return [
    `:root {${light}}`,
    `:root[data-theme="light"] { color-scheme: light; }`,
    `:root[data-theme="dark"] { color-scheme: dark;${dark}}`,
    `@media (prefers-color-scheme: dark) { :root:not([data-theme]) {${dark}} }`,
  ].join('\n');
}

/** The desk's button rules (`button`, `.primary`, `.secondary`, …): the apps' buttons look as the desk's. */
export function deskButtons(deskCss: string): string {
  const rules = deskCss.match(/^button[^{]*\{[^}]*\}/gm) ?? [];
  if (rules.length === 0) throw new Error('desk.css has no button rules to share with the apps');
  return rules.join('\n');
}

/** One app's self-contained document: its styles and the one script inline, nothing fetched. */
export function appDocument(app: AppName, css: string, script: string): string {
  // A script's text ends at the first "</script": none may appear inside it.
  const inline = script.replaceAll('</script', '<\\/script');
  return `<!doctype html>
<html lang="pt-BR" data-app="${app}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${APPS[app].name}</title>
<style>
${css}
</style>
</head>
<body>
<div id="app"></div>
<script type="module">${inline}</script>
</body>
</html>
`;
}

/** After `vite build --mode apps`: `dist/apps/<app>.html` for each app, from the bundle and the styles. */
export function writeAppDocuments(dir: string): void {
  const desk = readFileSync(new URL('../../desk/desk.css', import.meta.url), 'utf8');
  const own = readFileSync(new URL('./view/apps.css', import.meta.url), 'utf8');
  const css = `${appPalette(desk)}\n${deskButtons(desk)}\n${own}`;
  const script = readFileSync(`${dir}/apps.js`, 'utf8');
  for (const app of Object.keys(APPS) as AppName[]) {
    writeFileSync(`${dir}/${app}.html`, appDocument(app, css, script));
  }
}
