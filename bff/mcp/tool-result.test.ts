import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../upstream/errors.ts';
import { answer, failure, RETRY_AFTER_SECONDS, transientFailure } from './tool-result.ts';

const textOf = (result: { content: unknown[] }, index = 0) =>
  (result.content[index] as { type: string; text: string }).text;

describe('answer: what an agent reads', () => {
  it('is a summary line, then the structured result as indented JSON, and the structured result itself', () => {
    const structured = { rates: [], reason: 'no_coverage', actionUrl: 'https://app.example/x' };
    const result = answer('No quote available (reason: no_coverage).', structured);
    expect(result.structuredContent).toBe(structured);
    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.type).toBe('text');
    expect(textOf(result)).toBe(`No quote available (reason: no_coverage).\n${JSON.stringify(structured)}`);
  });

  it('keeps the text within 1,000 characters and the PDF out of it: the structured result has it, once', () => {
    const pdf = 'JVBER'.repeat(2000);
    const result = answer('Label ready.', { prepostagemId: 'PP1', labelPdfBase64: pdf });
    expect(result.content).toHaveLength(1);
    expect(textOf(result).length).toBeLessThanOrEqual(1000);
    expect(textOf(result)).not.toContain('JVBER');
    expect(textOf(result)).toContain('"prepostagemId":"PP1"');
    expect(result.structuredContent?.labelPdfBase64).toBe(pdf);
    const long = answer('x'.repeat(5000), { a: 1 });
    expect(textOf(long).length).toBeLessThanOrEqual(1000);
    expect(textOf(long)).toMatch(/structuredContent\.$/);
  });

  it('never shows a secret key, wherever it hides', () => {
    const result = answer('Quoted with mk_live_abc123', { note: 'key mk_test_demo' });
    expect(textOf(result)).not.toMatch(/mk_(live_abc123|test_demo)/);
    expect(textOf(result)).toContain('mk_[redacted]');
  });
});

describe('failure: a tool error the agent can act on', () => {
  it('is the summary alone when there is nothing more to say', () => {
    const result = failure('Nothing was looked up.');
    expect(result).toEqual({ content: [{ type: 'text', text: 'Nothing was looked up.' }], isError: true });
  });

  it('adds what to do as indented JSON, and scrubs secrets', () => {
    const details = { error: 'ledger_unavailable', retryable: true };
    const result = failure('The ledger is down (mk_test_demo).', details);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`The ledger is down (mk_[redacted]).\n${JSON.stringify(details, null, 2)}`);
  });
});

describe('transientFailure: platform down, slow or limiting', () => {
  it('tells the agent to wait 10 seconds, and says when the platform is limiting calls', () => {
    expect(RETRY_AFTER_SECONDS).toBe(10);
    const limited = transientFailure('Quoting', new UpstreamError('limited', 'HTTP 429 from upstream'));
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toBe(
      `Quoting is temporarily unavailable (the platform is limiting calls); try again in 10 seconds.\n${JSON.stringify(
        { error: 'rate_limited', retryable: true, retryAfterSeconds: 10 },
        null,
        2,
      )}`,
    );
  });

  it('calls anything else "did not answer", and never passes on the upstream words', () => {
    for (const error of [
      new UpstreamError('unavailable', 'upstream said: internal db host 10.0.0.5 down'),
      new Error('socket hang up at 10.0.0.5'),
      'a string',
    ]) {
      const result = transientFailure('Tracking', error);
      const text = textOf(result);
      expect(text).toMatch(
        /^Tracking is temporarily unavailable \(the platform did not answer\); try again in 10 seconds\./,
      );
      expect(text).toContain('"error": "upstream_unavailable"');
      expect(text).not.toContain('10.0.0.5');
    }
  });
});
