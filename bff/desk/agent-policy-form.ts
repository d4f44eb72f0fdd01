import { type Html, html } from '../../shared/html.ts';
import type { AgentPolicy } from '../policies/policies.ts';
import { MESSAGES } from './messages.ts';
import { NEEDS_SCRIPT } from './view-parts.ts';

/**
 * The policy form of one OAuth client on `/admin/agents` (docs/agents/labels.md, "A policy per agent"): labels
 * and declared value per São Paulo day, the services it may use, and when the merchant approves first. The desk's
 * script sends it to `POST /admin/api/agents/<client>/policy`. A table row under the client's own row (the page is
 * in Portuguese, as the rest of /admin/agents).
 */
export function agentPolicyRow(
  client: { idHash: string; name: string },
  policy: AgentPolicy | undefined,
  serviceIds: readonly string[],
  columns: number,
): Html {
  const t = MESSAGES['pt-BR'];
  const id = (field: string) => `policy-${client.idHash.slice(0, 12)}-${field}`;
  const approval = policy?.approval ?? 'never';
  const above = typeof approval === 'number';
  const known = [...new Set([...serviceIds, ...(policy?.services ?? [])])];
  const services =
    serviceIds.length > 0
      ? html`<fieldset class="services">
<legend>${t.servicesLegend}</legend>
${known.map(
  (service, i) =>
    html`<div class="check"><input id="${id(`service-${i}`)}" type="checkbox" name="services" value="${service}"${
      policy?.services?.includes(service) ? html` checked` : ''
    }><label for="${id(`service-${i}`)}">${service}</label></div>`,
)}
</fieldset>`
      : html`<div class="field wide"><label for="${id('services')}">${t.servicesText}</label><input id="${id('services')}" name="servicesText" type="text" maxlength="400" value="${policy?.services?.join(', ') ?? ''}"></div>`;
  const radio = (value: string, label: string, checked: boolean) =>
    html`<div class="check"><input id="${id(`approval-${value}`)}" type="radio" name="approval" value="${value}"${
      checked ? html` checked` : ''
    }><label for="${id(`approval-${value}`)}">${label}</label></div>`;
  return html`<tr class="policy-row"><td colspan="${columns}">
<details class="policy">
<summary>${t.policySummary(client.name)}</summary>
<form class="policy-form" data-policy-form="${client.idHash}">
<p class="hint">${t.policyHelp}</p>
<div class="field"><label for="${id('labels')}">${t.maxLabels}</label><input id="${id('labels')}" name="maxLabelsPerDay" type="number" min="0" max="100000" step="1" inputmode="numeric" value="${policy?.maxLabelsPerDay ?? ''}"></div>
<div class="field"><label for="${id('value')}">${t.maxValue}</label><input id="${id('value')}" name="maxDeclaredValuePerDay" type="number" min="0" step="0.01" inputmode="decimal" value="${policy?.maxDeclaredValuePerDay ?? ''}"></div>
${services}
<fieldset class="approval">
<legend>${t.approvalLegend}</legend>
${radio('never', t.approvalNever, approval === 'never')}
${radio('always', t.approvalAlways, approval === 'always')}
${radio('above', t.approvalAbove, above)}
<div class="field"><label for="${id('amount')}">${t.approvalAmount}</label><input id="${id('amount')}" name="approvalAmount" type="number" min="0" step="0.01" inputmode="decimal" value="${above ? approval : ''}"></div>
</fieldset>
<div class="check"><input id="${id('issue-app')}" type="checkbox" name="issue" value="app"${
    policy?.issue === 'app' ? html` checked` : ''
  }><label for="${id('issue-app')}">${t.issueByApp}</label></div>
<div class="check"><input id="${id('decides')}" type="checkbox" name="decidesApprovals" value="yes"${
    policy?.decidesApprovals ? html` checked` : ''
  }><label for="${id('decides')}">${t.decidesApprovals}</label></div>
<div class="actions"><button class="secondary" type="submit"${NEEDS_SCRIPT}>${t.savePolicy}</button></div>
<p class="status" role="status" data-policy-status></p>
</form>
</details>
</td></tr>`;
}
