import type { Messages } from '../messages.ts';
import { errorOf } from './api.ts';
import { resultOf } from './order.ts';
import { answerOf, once, say } from './ui.ts';

/**
 * The approvals page: approve (the label is issued at once) or reject, then the page again with what happened. A label
 * over its agent's daily limits is approved only by a second, explicit click: the server answers 409
 * `agent_limit_reached`, and the card then shows its "approve over the limit" button, which sends `overLimit: true`.
 */
export function mountApprovals(t: Messages): void {
  const status = document.querySelector('[data-approval-status]');
  const decide = async (approvalId: string, verb: 'approve' | 'reject', overLimit = false) => {
    const path = `/admin/api/approvals/${approvalId}/${verb}`;
    const answer = await answerOf(t, status, path, overLimit ? { overLimit: true } : {});
    if (!answer) return;
    const error = errorOf(answer.body);
    if (answer.status === 409 && error?.code === 'agent_limit_reached') {
      const limit = (answer.body as { error: { limit?: string } }).error.limit ?? '';
      say(status, t.overLimitAsk(t.limitName[limit] ?? limit), true);
      const second = document.querySelector<HTMLButtonElement>(`[data-approve-over="${approvalId}"]`);
      if (second) {
        second.hidden = false;
        second.focus();
      }
      return;
    }
    if (answer.status === 409) {
      say(status, t.approvalNotPending, true);
      return;
    }
    if (error) {
      say(status, t.failed(error.message), true);
      return;
    }
    if (verb === 'approve' && answer.status === 422) {
      const result = resultOf(t, 1, 1, answer.status, answer.body);
      say(status, [result.text, result.detail].filter(Boolean).join(' '), true);
      return;
    }
    window.location.assign(
      `/admin/approvals?done=${verb === 'approve' ? 'approved' : 'rejected'}&id=${approvalId}`,
    );
  };
  for (const verb of ['approve', 'reject'] as const) {
    for (const button of document.querySelectorAll<HTMLButtonElement>(`[data-${verb}]`)) {
      button.addEventListener('click', () => once(button, () => decide(button.dataset[verb] ?? '', verb)));
    }
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-approve-over]')) {
    button.addEventListener('click', () =>
      once(button, () => decide(button.dataset.approveOver ?? '', 'approve', true)),
    );
  }
}
