import { localeOf } from '../../../shared/locale.ts';
import { MESSAGES } from '../messages.ts';
import { ORDER_MESSAGES } from '../order-messages.ts';
import { mountAgents } from './agents.ts';
import { mountApprovals } from './approvals.ts';
import { mountAttempt } from './attempt.ts';
import { IssueForm } from './issue.ts';
import { mountLabels } from './labels.ts';
import { mountOrderReview, mountOrders } from './orders.ts';
import { enableScriptControls } from './ui.ts';

/**
 * The label desk's script: one ES module (`/admin/assets/desk.js`, built by `vite build --mode desk`), loaded by
 * every desk page. The page says what it is (`<body data-page>`) and its language (`<html lang>`); the script adds
 * the actions, each through the desk's JSON API. A notice a page opens with (after an action) takes the focus.
 */
function start(): void {
  const lang = localeOf(document.documentElement.lang) ?? 'pt-BR';
  const t = MESSAGES[lang];
  document.getElementById('notice')?.focus();
  switch (document.body.dataset.page) {
    case 'labels':
      mountLabels(t);
      break;
    case 'issue': {
      const form = document.querySelector<HTMLFormElement>('[data-issue-form]');
      if (form) new IssueForm(form, t, lang).mount();
      break;
    }
    case 'attempt':
      mountAttempt(t);
      break;
    case 'approvals':
      mountApprovals(t);
      break;
    case 'agents':
      mountAgents(t);
      break;
    case 'orders':
      mountOrders(t, ORDER_MESSAGES[lang]);
      break;
    case 'order':
      mountOrderReview(t);
      break;
  }
  // The page's buttons work from here on: rendered disabled until now (a tap before this would have done nothing),
  // they are enabled in the same task that bound them, so no click falls between the two.
  enableScriptControls(document);
  document.body.dataset.mounted = '';
}

start();
