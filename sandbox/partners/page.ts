import { escapeHtml, Html, page } from '../../shared/html.ts';
import type { NewStoreKeys } from './desk.ts';
import { type FieldErrors, FORM_SERVICES, type OnboardingFields, readFields } from './form.ts';

/** The stylesheet of the onboarding pages (served as a file: the pages carry no inline script or style). */
export const ONBOARDING_CSS = `
:root { font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; line-height: 1.5; }
body { margin: 0; }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
fieldset { border: 1px solid #6b6b6b; border-radius: .4rem; margin: 1.25rem 0; padding: .75rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
label { display: block; margin: .5rem 0 .25rem; }
.choice { display: flex; gap: .5rem; align-items: center; margin: .35rem 0; }
.choice label { margin: 0; }
input[type=text], input[type=password] { font: inherit; padding: .45rem .5rem; border: 1px solid #595959; border-radius: .3rem; width: 100%; max-width: 20rem; box-sizing: border-box; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.hint { color: #4a4a4a; font-size: .92rem; margin: .2rem 0; }
.error { color: #a4001d; font-weight: 600; margin: .25rem 0; }
.summary { border: 2px solid #a4001d; border-radius: .4rem; padding: .5rem 1rem; margin: 1rem 0; }
.summary a { color: #a4001d; }
button { font: inherit; font-weight: 600; color: #fff; background: #0b57d0; border: 0; border-radius: .4rem; padding: .6rem 1.2rem; cursor: pointer; }
code { font-size: 1rem; background: #f1f1f1; padding: .15rem .3rem; border-radius: .2rem; word-break: break-all; }
dt { font-weight: 600; margin-top: .75rem; }
.warning { border-left: 4px solid #8a5a00; padding: .25rem .75rem; background: #fff8e6; }
`;

/** A page in the shared shell (shared/html.ts); the body is built here with `escapeHtml` on every value. */
function layout(title: string, body: string): string {
  return page(`${title} · Plataforma de fretes (sandbox)`, new Html(body), '/onboarding.css');
}

function errorText(errors: FieldErrors, field: keyof OnboardingFields): string {
  const message = errors[field];
  return message ? `<p class="error" id="${field}-erro">${escapeHtml(message)}</p>` : '';
}

function describedBy(errors: FieldErrors, field: keyof OnboardingFields, hint?: string): string {
  const ids = [hint, errors[field] ? `${field}-erro` : undefined].filter(Boolean).join(' ');
  return `${ids ? ` aria-describedby="${ids}"` : ''}${errors[field] ? ' aria-invalid="true"' : ''}`;
}

function radio(name: string, value: string, label: string, checked: boolean, errors: FieldErrors): string {
  const id = `${name}-${value}`;
  return `<div class="choice"><input type="radio" id="${id}" name="${name}" value="${value}"${checked ? ' checked' : ''}${describedBy(errors, name as keyof OnboardingFields)}><label for="${id}">${label}</label></div>`;
}

const FIELD_ANCHOR: Record<keyof OnboardingFields, string> = {
  originCep: 'originCep',
  services: 'services-03298',
  plan: 'plan-ativo',
  contract: 'contract-proprio',
  contractNumber: 'contractNumber',
  accessCode: 'accessCode',
  labels: 'labels',
};

/** The onboarding form (spec 4.4.6): origin CEP, services, plan, carrier contract, label integration. */
export function formPage(
  storeName: string,
  fields: OnboardingFields | undefined,
  errors: FieldErrors = {},
): string {
  const f = fields ?? readFields({});
  const problems = Object.entries(errors) as [keyof OnboardingFields, string][];
  const summary =
    problems.length === 0
      ? ''
      : `<div class="summary" role="alert">
<h2>Corrija ${problems.length === 1 ? 'o campo abaixo' : `os ${problems.length} campos abaixo`}</h2>
<ul>${problems.map(([field, message]) => `<li><a href="#${FIELD_ANCHOR[field]}">${escapeHtml(message)}</a></li>`).join('')}</ul>
</div>`;
  const services = FORM_SERVICES.map(
    (service) =>
      `<div class="choice"><input type="checkbox" id="services-${service.code}" name="services" value="${service.code}"${f.services.includes(service.code) ? ' checked' : ''}${describedBy(errors, 'services')}><label for="services-${service.code}">${service.name} (${service.code})</label></div>`,
  ).join('\n');
  return layout(
    'Configure sua loja',
    `<h1>Configure sua loja</h1>
<p>Loja <strong>${escapeHtml(storeName)}</strong>. Preencha tudo de uma vez; no fim você recebe as chaves da integração.</p>
${summary}
<form method="post" novalidate>
<fieldset>
<legend>Origem dos envios</legend>
<label for="originCep">CEP de origem</label>
<p class="hint" id="originCep-dica">De onde saem os pacotes, por exemplo 01310-100.</p>
<input type="text" id="originCep" name="originCep" inputmode="numeric" autocomplete="postal-code" maxlength="12" value="${escapeHtml(f.originCep)}"${describedBy(errors, 'originCep', 'originCep-dica')}>
${errorText(errors, 'originCep')}
</fieldset>
<fieldset>
<legend>Serviços de entrega oferecidos no carrinho</legend>
${services}
${errorText(errors, 'services')}
</fieldset>
<fieldset>
<legend>Plano</legend>
${radio('plan', 'ativo', 'Ativar o plano agora (cotações e etiquetas funcionam)', f.plan === 'ativo', errors)}
${radio('plan', 'depois', 'Ativar depois (as cotações respondem que falta o plano)', f.plan === 'depois', errors)}
${errorText(errors, 'plan')}
</fieldset>
<fieldset>
<legend>Contrato com os Correios</legend>
${radio('contract', 'proprio', 'A loja tem contrato próprio', f.contract === 'proprio', errors)}
${radio('contract', 'nenhum', 'A loja não tem contrato próprio (não emite etiquetas)', f.contract === 'nenhum', errors)}
${errorText(errors, 'contract')}
<label for="contractNumber">Número do contrato</label>
<p class="hint" id="contractNumber-dica">Só com contrato próprio: 10 dígitos.</p>
<input type="text" id="contractNumber" name="contractNumber" inputmode="numeric" autocomplete="off" maxlength="10" value="${escapeHtml(f.contractNumber)}"${describedBy(errors, 'contractNumber', 'contractNumber-dica')}>
${errorText(errors, 'contractNumber')}
<label for="accessCode">Código de acesso do contrato</label>
<p class="hint" id="accessCode-dica">Só com contrato próprio. Não é a senha da sua conta nesta plataforma.</p>
<input type="password" id="accessCode" name="accessCode" autocomplete="off" maxlength="100"${describedBy(errors, 'accessCode', 'accessCode-dica')}>
${errorText(errors, 'accessCode')}
</fieldset>
<fieldset>
<legend>Etiquetas</legend>
<div class="choice"><input type="checkbox" id="labels" name="labels" value="sim"${f.labels === 'sim' ? ' checked' : ''}${describedBy(errors, 'labels', 'labels-dica')}><label for="labels">Ativar a integração de etiquetas</label></div>
<p class="hint" id="labels-dica">Agentes com a chave secreta poderão emitir pré-postagens reais.</p>
${errorText(errors, 'labels')}
</fieldset>
<button type="submit">Concluir configuração</button>
</form>`,
  );
}

/** The keys of the new store, shown this once. */
export function keysPage(storeName: string, merchantId: string, keys: NewStoreKeys): string {
  return layout(
    'Loja configurada',
    `<h1>Loja configurada</h1>
<p>A loja <strong>${escapeHtml(storeName)}</strong> (<code>${escapeHtml(merchantId)}</code>) está ativa.</p>
<p class="warning" role="status"><strong>Copie as chaves agora.</strong> Esta página não será mostrada de novo: a chave secreta não pode ser recuperada.</p>
<dl>
<dt>Chave pública (navegador: cotações)</dt>
<dd><code id="public-key">${escapeHtml(keys.publicKey)}</code></dd>
<dt>Chave secreta (só no servidor da loja: cotações, rastreio, etiquetas)</dt>
<dd><code id="secret-key">${escapeHtml(keys.secretKey)}</code></dd>
</dl>
<p>Nunca coloque a chave secreta em páginas, aplicativos ou repositórios.</p>`,
  );
}

/** The onboarding was finished before: the keys are not shown again. */
export function donePage(storeName: string): string {
  return layout(
    'Loja já configurada',
    `<h1>Loja já configurada</h1>
<p>A configuração da loja <strong>${escapeHtml(storeName)}</strong> já foi concluída e as chaves foram mostradas uma única vez.</p>
<p>Se você perdeu a chave secreta, peça uma nova pelo canal de suporte.</p>`,
  );
}

/** An onboarding address that does not exist (or no longer: reset). */
export function notFoundPage(): string {
  return layout(
    'Endereço não encontrado',
    `<h1>Endereço de configuração não encontrado</h1>
<p>Confira o link recebido do seu parceiro; ele pode ter expirado.</p>`,
  );
}
