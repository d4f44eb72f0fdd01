import type { Messages } from '../messages.ts';
import { errorOf } from './api.ts';
import { resultOf } from './order.ts';
import { answerOf, once, say } from './ui.ts';

/** The approvals page: approve (the label is issued at once) or reject, then the page again with what happened. */
export function mountApprovals(t: Messages): void {
  const status = document.querySelector('[data-approval-status]');
  const decide = async (approvalId: string, verb: 'approve' | 'reject') => {
    const answer = await answerOf(t, status, `/admin/api/approvals/${approvalId}/${verb}`, {});
    if (!answer) return;
    const error = errorOf(answer.body);
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
}
