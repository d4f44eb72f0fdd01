import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../shared/issues.ts';
import { AgentPolicySchema, DESK, dailyLimits, needsApproval, serviceAllowed } from './policies.ts';

const problem = (policy: unknown) => {
  const parsed = AgentPolicySchema.safeParse(policy);
  return parsed.success ? undefined : describeIssues(parsed.error.issues, 1);
};

// 2026-11-24 15:00 in São Paulo (UTC−3): its day runs from 03:00 UTC that day to 03:00 UTC the next.
const AFTERNOON = Date.parse('2026-11-24T18:00:00Z');
const DAY_START = Date.parse('2026-11-24T03:00:00Z');
const DAY_END = Date.parse('2026-11-25T03:00:00Z');

describe('AgentPolicySchema', () => {
  it('accepts an empty policy and one with every field', () => {
    expect(problem({})).toBeUndefined();
    expect(
      problem({
        maxLabelsPerDay: 0,
        maxDeclaredValuePerDay: 1_000_000_000,
        services: ['correios-pac', '03298'],
        approval: 50.5,
        issue: 'app',
        decidesApprovals: true,
      }),
    ).toBeUndefined();
    expect(problem({ approval: 'never' })).toBeUndefined();
    expect(problem({ approval: 'always', issue: 'agent', maxLabelsPerDay: 100_000 })).toBeUndefined();
  });

  it.each([
    [{ maxLabelsPerDay: -1 }, 'maxLabelsPerDay: must be ≥ 0'],
    [{ maxLabelsPerDay: 100_001 }, 'maxLabelsPerDay: must be ≤ 100000'],
    [{ maxLabelsPerDay: 1.5 }, 'maxLabelsPerDay: expected int'],
    [{ maxDeclaredValuePerDay: -0.01 }, 'maxDeclaredValuePerDay: must be ≥ 0'],
    [{ maxDeclaredValuePerDay: 1_000_000_001 }, 'maxDeclaredValuePerDay: must be ≤ 1000000000'],
    [{ services: [] }, 'services: must have at least 1 entries'],
    [{ services: [''] }, 'services.0: must have at least 1 characters'],
    [{ services: ['x'.repeat(41)] }, 'services.0: must have at most 40 characters'],
    [{ approval: -1 }, 'approval'],
    [{ approval: 'sometimes' }, 'approval'],
    [{ issue: 'merchant' }, 'issue'],
    [{ decidesApprovals: false }, 'decidesApprovals'],
    [{ maxLabels: 3 }, 'maxLabels'],
  ])('refuses %j', (policy, where) => {
    expect(problem(policy)).toContain(where);
  });

  it('takes a service name of exactly 40 characters', () => {
    expect(problem({ services: ['x'.repeat(40)] })).toBeUndefined();
  });
});

describe('dailyLimits', () => {
  it('has none for the desk, a caller without a policy, or a policy with no daily limit', () => {
    expect(dailyLimits(DESK, AFTERNOON)).toBeUndefined();
    expect(dailyLimits({ issuedBy: 'a', policy: {} }, AFTERNOON)).toBeUndefined();
    expect(
      dailyLimits({ issuedBy: 'a', policy: { services: ['correios-pac'], approval: 'always' } }, AFTERNOON),
    ).toBeUndefined();
  });

  it('counts labels over the São Paulo day of `now`, with no value limit when only a count is set', () => {
    expect(dailyLimits({ issuedBy: 'agent-a', policy: { maxLabelsPerDay: 0 } }, AFTERNOON)).toEqual({
      issuedBy: 'agent-a',
      dayStart: DAY_START,
      dayEnd: DAY_END,
      maxLabels: 0,
      maxDeclaredValueCents: undefined,
    });
  });

  it('counts the declared value in centavos, with no count limit when only a value is set', () => {
    expect(
      dailyLimits({ issuedBy: 'agent-b', policy: { maxDeclaredValuePerDay: 100.1 } }, DAY_START),
    ).toEqual({
      issuedBy: 'agent-b',
      dayStart: DAY_START,
      dayEnd: DAY_END,
      maxLabels: undefined,
      maxDeclaredValueCents: 10_010,
    });
    // a millisecond before the day starts is still the day before
    expect(
      dailyLimits({ issuedBy: 'agent-b', policy: { maxDeclaredValuePerDay: 0 } }, DAY_START - 1),
    ).toMatchObject({
      dayEnd: DAY_START,
      maxDeclaredValueCents: 0,
    });
  });
});

describe('needsApproval', () => {
  it('never asks without a policy or with approval "never", and always with "always"', () => {
    expect(needsApproval(undefined, 1_000_000)).toBe(false);
    expect(needsApproval({}, 1_000_000)).toBe(false);
    expect(needsApproval({ approval: 'never' }, 1_000_000)).toBe(false);
    expect(needsApproval({ approval: 'always' }, 0)).toBe(true);
  });

  it('asks only above a value in BRL: R$ 50.00 passes, R$ 50.01 waits', () => {
    const policy = { approval: 50 };
    expect(needsApproval(policy, 5_000)).toBe(false);
    expect(needsApproval(policy, 5_001)).toBe(true);
    expect(needsApproval({ approval: 0 }, 0)).toBe(false);
    expect(needsApproval({ approval: 0 }, 1)).toBe(true);
  });

  it('always waits for a person when only the app may issue, whatever the approval says', () => {
    expect(needsApproval({ issue: 'app' }, 0)).toBe(true);
    expect(needsApproval({ issue: 'app', approval: 'never' }, 0)).toBe(true);
    expect(needsApproval({ issue: 'agent', approval: 'never' }, 1_000_000)).toBe(false);
  });
});

describe('serviceAllowed', () => {
  const pac = { serviceCode: '03298', serviceId: 'correios-pac' };
  const sedex = { serviceCode: '03220', serviceId: 'correios-sedex' };
  const mini = { serviceCode: '04227', serviceId: 'correios-mini' };

  it('allows every service without a policy or without a list', () => {
    expect(serviceAllowed(undefined, mini)).toBe(true);
    expect(serviceAllowed({ approval: 'always' }, mini)).toBe(true);
  });

  it('allows each of two listed services, one by its id and one by its contract code, and no other', () => {
    const policy = { services: ['correios-pac', '03220'] };
    expect(serviceAllowed(policy, pac)).toBe(true);
    expect(serviceAllowed(policy, sedex)).toBe(true);
    expect(serviceAllowed(policy, mini)).toBe(false);
    // a service known only by its contract code
    expect(serviceAllowed(policy, { serviceCode: '03220' })).toBe(true);
    expect(serviceAllowed(policy, { serviceCode: '03298' })).toBe(false);
  });
});
