import { type Messages, reasonName } from '../messages.ts';
import { errorOf } from './api.ts';
import { resultOf } from './order.ts';
import { answerOf, once, say } from './ui.ts';

/**
 * One attempt: the decisions on an unknown one ("this pre-posting is ours" on a matching history entry, "nothing was
 * created", a forced binding with a written reason) and "send again" on one that was not sent, each through the
 * desk's API; after a decision the page is loaded again and says what was decided.
 */
export function mountAttempt(t: Messages): void {
  const holder = document.querySelector<HTMLElement>('[data-attempt]');
  const attemptId = holder?.dataset.attempt;
  if (!attemptId) return;
  const status = document.querySelector('[data-resolve-status]');

  const resolve = async (decision: Record<string, unknown>, done: 'created' | 'not_created') => {
    const answer = await answerOf(t, status, `/admin/api/labels/${attemptId}/resolve`, decision);
    if (!answer) return;
    if (answer.status === 200) {
      window.location.assign(`/admin/labels/${attemptId}?done=${done}`);
      return;
    }
    const error = errorOf(answer.body);
    const words = error ? (t.resolveRefused[error.code] ?? error.message) : t.network;
    say(status, t.failed(words), true);
  };

  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-resolve-created]')) {
    button.addEventListener('click', () =>
      once(button, () => resolve({ prepostagemId: button.dataset.resolveCreated }, 'created')),
    );
  }
  const notCreated = document.querySelector<HTMLFormElement>('[data-resolve-not-created]');
  notCreated?.addEventListener('submit', (event) => {
    event.preventDefault();
    void once(notCreated.querySelector('button'), () => resolve({ notCreated: true }, 'not_created'));
  });
  const forced = document.querySelector<HTMLFormElement>('[data-resolve-forced]');
  forced?.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(forced);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    void once(forced.querySelector('button'), () =>
      resolve(
        {
          prepostagemId: text('prepostagemId'),
          ...(text('trackingCode') ? { trackingCode: text('trackingCode') } : {}),
          force: text('force'),
        },
        'created',
      ),
    );
  });

  const resend = document.querySelector<HTMLButtonElement>('[data-resend]');
  const resendStatus = document.querySelector('[data-resend-status]');
  resend?.addEventListener('click', () =>
    once(resend, async () => {
      const answer = await answerOf(t, resendStatus, `/admin/api/labels/${attemptId}/resend`, {});
      if (!answer) return;
      const error = errorOf(answer.body);
      if (error) {
        say(resendStatus, t.failed(t.resolveRefused[error.code] ?? reasonName(t, error.code)), true);
        return;
      }
      const result = resultOf(t, 1, 1, answer.status, answer.body);
      if (result.attemptId && result.attemptId !== attemptId) {
        window.location.assign(`/admin/labels/${result.attemptId}?done=resent`);
        return;
      }
      say(resendStatus, [result.text, result.detail].filter(Boolean).join(' '), result.kind === 'refused');
    }),
  );
}
