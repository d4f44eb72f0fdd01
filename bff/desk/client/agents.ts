import type { Messages } from '../messages.ts';
import { errorOf } from './api.ts';
import { policyOf } from './order.ts';
import { answerOf, once, say } from './ui.ts';

/** `/admin/agents`: each OAuth client's policy form saved through `POST /admin/api/agents/<client>/policy`. */
export function mountAgents(t: Messages): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-policy-form]')) {
    const amount = form.querySelector<HTMLInputElement>('input[name="approvalAmount"]');
    const syncAmount = () => {
      if (amount)
        amount.required = form.querySelector<HTMLInputElement>('input[value="above"]')?.checked === true;
    };
    form.addEventListener('change', syncAmount);
    syncAmount();
    const status = form.querySelector('[data-policy-status]');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const text = (name: string) => String(data.get(name) ?? '');
      const policy = policyOf({
        maxLabelsPerDay: text('maxLabelsPerDay'),
        maxDeclaredValuePerDay: text('maxDeclaredValuePerDay'),
        services: data.has('servicesText')
          ? text('servicesText').split(',')
          : data.getAll('services').map((service) => String(service)),
        approval: text('approval'),
        approvalAmount: text('approvalAmount'),
        issue: text('issue'),
        decidesApprovals: text('decidesApprovals'),
      });
      void once(form.querySelector('button[type="submit"]'), async () => {
        const path = `/admin/api/agents/${form.dataset.policyForm}/policy`;
        const answer = await answerOf(t, status, path, policy ?? {});
        if (!answer) return;
        const error = errorOf(answer.body);
        say(status, error ? t.failed(error.message) : t.policySaved, Boolean(error));
      });
    });
  }
}
