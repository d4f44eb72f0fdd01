// vitest setupFiles entry (vite.config.ts, scripts/mutation/vitest.config.ts): the suite's fast-check seed
import { configureSeed } from './fast-check-seed.ts';

configureSeed(process.env.FC_SEED);
