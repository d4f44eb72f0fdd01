// The production entry point of the BFF (`npm run bff`). Plain JavaScript on purpose: it must run on any Node to
// say clearly that Node 24 is needed, where `bff/main.ts` would fail on an old Node with ERR_UNKNOWN_FILE_EXTENSION.
// Keep the syntax old (no optional chaining, no top-level await) so even Node 12 reaches the message.
import { existsSync } from 'node:fs';

const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);

if (!(major >= REQUIRED_MAJOR)) {
  console.error(
    'frete-kit BFF: Node ' +
      REQUIRED_MAJOR +
      ' or newer is required (it runs TypeScript directly); this is Node ' +
      process.versions.node +
      ' at ' +
      process.execPath +
      '. Install Node ' +
      REQUIRED_MAJOR +
      ' (see docs/deploy.md) and start again.',
  );
  process.exit(1);
}

// `.env` in the working directory, if present; variables already in the environment win over the file.
if (existsSync('.env')) {
  try {
    process.loadEnvFile('.env');
  } catch (error) {
    console.error('frete-kit BFF: cannot read .env:', error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

import('./main.ts').catch((error) => {
  console.error('frete-kit BFF: could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
