import { describe, expect, it } from 'vitest';
import { AppSeals } from './seals.ts';

const seals = new AppSeals('mk_test_demo');

describe('the seals of MCP Apps', () => {
  it('knows a UI session it made for its holder, and no other holder, altered id or other key', () => {
    const session = seals.session('assistente');
    expect(session).toMatch(/^ui1\.[\w-]+\.[\w-]+$/);
    expect(seals.isSession(session, 'assistente')).toBe(true);
    expect(seals.isSession(session, 'outro')).toBe(false);
    expect(seals.isSession(`${session}x`, 'assistente')).toBe(false);
    expect(seals.isSession(session.replace('ui1.', 'ui2.'), 'assistente')).toBe(false);
    expect(seals.isSession(undefined, 'assistente')).toBe(false);
    expect(new AppSeals('mk_other_key').isSession(session, 'assistente')).toBe(false);
  });

  it('reads a grant only for its purpose, approval and holder', () => {
    const grant = seals.grant('issue', 'approval-1', 'assistente');
    expect(seals.approvalOf('issue', grant, 'assistente')).toBe('approval-1');
    expect(seals.approvalOf('decide', grant, 'assistente')).toBeUndefined();
    expect(seals.approvalOf('issue', grant, 'outro')).toBeUndefined();
    const [, signature] = grant.split('.');
    expect(seals.approvalOf('issue', `approval-2.${signature}`, 'assistente')).toBeUndefined();
    expect(seals.approvalOf('issue', 'no-dot', 'assistente')).toBeUndefined();
  });

  it('never signs two different (subject, holder) pairs alike, however the text is cut', () => {
    // "a.b" for "c" and "a" for "b.c" would read the same without the lengths in the signed text.
    const one = seals.grant('issue', 'a\nb', 'c').split('.').pop();
    const two = seals.grant('issue', 'a', 'b\nc').split('.').pop();
    expect(one).not.toBe(two);
  });
});
