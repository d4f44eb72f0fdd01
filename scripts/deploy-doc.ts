import { readFileSync } from 'node:fs';

/** docs/deploy.md, whose commands `npm run test:deploy` and scripts/docs.test.ts run as written. */
export const DEPLOY_DOC = readFileSync(new URL('../docs/deploy.md', import.meta.url), 'utf8');

/** The code block right after `<!-- tested: name -->` in docs/deploy.md; throws when the page has none. */
export function deployBlock(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(DEPLOY_DOC);
  if (!match?.[1]) throw new Error(`docs/deploy.md has no block marked "tested: ${name}"`);
  return match[1];
}
