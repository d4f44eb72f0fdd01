import { describe, expect, it } from 'vitest';
import {
  approvalSummary,
  labelRefusalSummary,
  labelSummary,
  notSentStatus,
  outcomeUnknownStatus,
  unsettledLabelSummary,
} from '../../shared/agent-texts.ts';
import { describeAnswer } from './answer.ts';
import { UNKNOWN_ADVICE } from './reconciler.ts';

/**
 * What a label request came to, as the MCP tool and the desk tell it (answer.ts): the structured record, the summary,
 * whether nothing was done, and the desk's status — each kind of answer, exactly.
 */
const RECORD = {
  prepostagemId: 'PP1000001',
  trackingCode: 'AB000000001BR',
  status: 'Pré-postagem criada',
  supportCode: 'sup-1',
};

describe('describeAnswer', () => {
  it('tells a refusal with its field, limit and reset time, as refused (422)', () => {
    const resetsAt = Date.parse('2026-11-24T03:00:00.000Z');
    expect(
      describeAnswer({
        kind: 'refused',
        refusal: {
          reason: 'agent_limit_reached',
          message: 'over',
          field: 'serviceCode',
          limit: 'services',
          resetsAt,
        },
      }),
    ).toEqual({
      structured: {
        reason: 'agent_limit_reached',
        status: 'over',
        field: 'serviceCode',
        limit: 'services',
        resetsAt: '2026-11-24T03:00:00.000Z',
      },
      summary: labelRefusalSummary({ reason: 'agent_limit_reached', message: 'over', field: 'serviceCode' }),
      refused: true,
      status: 422,
    });
    expect(
      describeAnswer({ kind: 'refused', refusal: { reason: 'unknown_service', message: 'no' } }),
    ).toEqual({
      structured: { reason: 'unknown_service', status: 'no' },
      summary: labelRefusalSummary({ reason: 'unknown_service', message: 'no', field: undefined }),
      refused: true,
      status: 422,
    });
  });

  it('tells a pending approval as not refused (200), and a rejected or expired one as refused (422)', () => {
    const pending = {
      kind: 'approval',
      reason: 'approval_pending',
      approvalId: 'ap-1',
      message: 'wait',
    } as const;
    expect(describeAnswer(pending)).toEqual({
      structured: { reason: 'approval_pending', approvalId: 'ap-1', status: 'wait' },
      summary: approvalSummary(pending),
      refused: false,
      status: 200,
    });
    for (const reason of ['approval_rejected', 'approval_expired'] as const) {
      expect(describeAnswer({ ...pending, reason })).toMatchObject({ refused: true, status: 422 });
    }
  });

  it('tells a new label 201 and a replayed one 200, with the attempt and the order (volume 1 by default)', () => {
    const created = { kind: 'created', record: RECORD, attemptId: 'at-1', replayed: false } as const;
    expect(describeAnswer({ kind: 'issued', outcome: created, orderId: 'PED-1' })).toEqual({
      structured: { ...RECORD, attemptId: 'at-1', orderId: 'PED-1', volume: 1 },
      summary: labelSummary(RECORD, false),
      refused: false,
      status: 201,
    });
    expect(
      describeAnswer({
        kind: 'issued',
        outcome: { ...created, replayed: true },
        orderId: 'PED-1',
        volume: 3,
      }),
    ).toEqual({
      structured: { ...RECORD, attemptId: 'at-1', orderId: 'PED-1', volume: 3 },
      summary: labelSummary(RECORD, true),
      refused: false,
      status: 200,
    });
    expect(describeAnswer({ kind: 'issued', outcome: created }).structured).toEqual({
      ...RECORD,
      attemptId: 'at-1',
    });
  });

  it("tells the carrier's rejection as done (200), its summary without a pre-posting", () => {
    const record = { status: 'Peso acima do limite', reason: 'prepostagem_rejected', supportCode: 'sup-2' };
    expect(
      describeAnswer({
        kind: 'issued',
        outcome: { kind: 'rejected', record, attemptId: 'at-2', replayed: false },
      }),
    ).toEqual({
      structured: { ...record, attemptId: 'at-2' },
      summary: labelSummary({ ...record, prepostagemId: undefined }),
      refused: false,
      status: 200,
    });
  });

  it('tells an unknown outcome with when it was sent and why, and a request never sent, both 200', () => {
    const since = Date.parse('2026-11-23T15:00:00.000Z');
    const unknown = describeAnswer({
      kind: 'issued',
      outcome: { kind: 'unknown', attemptId: 'at-3', since, why: 'ambiguous' },
      orderId: 'PED-2',
      volume: 2,
    });
    const structured = {
      reason: 'outcome_unknown' as const,
      status: outcomeUnknownStatus({ sentAt: since, because: UNKNOWN_ADVICE.ambiguous, attemptId: 'at-3' }),
      attemptId: 'at-3',
      orderId: 'PED-2',
      volume: 2,
    };
    expect(unknown).toEqual({
      structured,
      summary: unsettledLabelSummary(structured),
      refused: false,
      status: 200,
    });
    const notSent = describeAnswer({
      kind: 'issued',
      outcome: { kind: 'not_sent', attemptId: 'at-4', message: 'connect ECONNREFUSED' },
    });
    const told = { reason: 'not_sent' as const, status: notSentStatus(), attemptId: 'at-4' };
    expect(notSent).toEqual({
      structured: told,
      summary: unsettledLabelSummary(told),
      refused: false,
      status: 200,
    });
  });

  it("tells the issuer's own refusal as a refusal, with its limit and reset time", () => {
    const resetsAt = Date.parse('2026-11-24T03:00:00.000Z');
    expect(
      describeAnswer({
        kind: 'issued',
        outcome: {
          kind: 'refused',
          why: 'agent_limit_reached',
          message: 'limit',
          limit: 'maxLabelsPerDay',
          resetsAt,
        },
      }),
    ).toEqual({
      structured: {
        reason: 'agent_limit_reached',
        status: 'limit',
        limit: 'maxLabelsPerDay',
        resetsAt: '2026-11-24T03:00:00.000Z',
      },
      summary: labelRefusalSummary({ reason: 'agent_limit_reached', message: 'limit', field: undefined }),
      refused: true,
      status: 422,
    });
  });
});
