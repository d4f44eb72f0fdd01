import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from './logger.ts';

describe('createLogger', () => {
  it('redacts Authorization headers and scrubs mk_ keys anywhere in a line', () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    logger.info({ req: { headers: { authorization: 'Bearer mk_live_abc' } } }, 'request');
    logger.error(
      { err: new Error('upstream said mk_live_secret_123 is bad'), url: 'http://x/?k=mk_live_q' },
      'failed with mk_live_x',
    );
    logger.info({ nested: { deeper: ['mk_test_demo'] } }, 'nested');
    const text = lines.join('\n');
    expect(text).not.toMatch(/mk_(live|test)_/);
    expect(text).toContain('[redacted]');
    expect(lines).toHaveLength(3);
  });

  it('leaves lines without secrets alone', () => {
    expect(scrubSecrets('{"msg":"ok pk_test_demo"}')).toBe('{"msg":"ok pk_test_demo"}');
  });
});
