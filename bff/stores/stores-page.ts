import * as z from 'zod/mini';
import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { formatWhen } from '../desk/format.ts';
import { CONNECTION_KINDS } from './connection-store.ts';

/** `GET /admin/api/stores` (ARCHITECTURE.md, "Connected stores"): every store and its connection's state. */
export const StoreViewSchema = z.object({
  platform: z.enum(['shopify', 'nuvemshop']),
  shop: z.string(),
  connected: z.boolean(),
  token: z.object({ kind: z.enum(CONNECTION_KINDS), expiresAt: z.optional(z.string()) }),
  carrier: z.enum(['registered', 'missing', 'error']),
  webhooks: z.array(z.string()),
  /** A failed renewal: why, and how many tries so far (it is retried with backoff). */
  renewal: z.optional(z.object({ error: z.string(), tries: z.number() })),
});
export type StoreView = z.infer<typeof StoreViewSchema>;
/** An install held for the merchant's approval (bff/stores/install-routes.ts, `approvalNeeded`). */
export const PendingViewSchema = z.object({
  platform: z.enum(['shopify', 'nuvemshop']),
  shop: z.string(),
  installedAt: z.string(),
});
export type PendingView = z.infer<typeof PendingViewSchema>;
export const StoresAnswerSchema = z.object({
  stores: z.array(StoreViewSchema),
  pending: z.array(PendingViewSchema),
});

const PT_BR = {
  navStores: 'Lojas',
  storesTitle: 'Lojas conectadas',
  storesIntro: 'As lojas de onde chegam pedidos e em cujo checkout aparecem os fretes.',
  noStores: 'Nenhuma loja conectada ainda.',
  colStore: 'Loja',
  colState: 'Conexão',
  colToken: 'Token',
  colCarrier: 'Frete no checkout',
  colWebhooks: 'Webhooks',
  colAction: 'Ação',
  connected: 'Conectada',
  disconnected: 'Desconectada',
  kinds: {
    static: 'fixo',
    client_credentials: 'credenciais do app',
    expiring: 'renovado sozinho',
    nuvemshop: 'do app',
  },
  carriers: { registered: 'registrado', missing: 'não registrado', error: 'erro ao registrar' },
  expires: (at: string) => `renova antes de ${at}`,
  renewFailed: (tries: number, why: string) => `Renovação falhou (${tries}×), tentando de novo: ${why}`,
  disconnect: 'Desconectar',
  reconnectShopify: 'Para reconectar, instale o app de novo pelo link de instalação.',
  reconnectNuvemshop: 'Para reconectar, instale o app de novo:',
  installNuvemshop: 'instalar na Nuvemshop',
  pendingTitle: 'Instalações esperando aprovação',
  pendingIntro:
    'Estas lojas instalaram o app, mas não recebem fretes nem mandam pedidos até você aprovar. Aprove só a sua loja: qualquer loja pode instalar um app publicado.',
  colInstalledAt: 'Instalou em',
  approve: 'Aprovar',
  reject: 'Recusar',
  revokeFailed:
    'Desconectada aqui, mas a Shopify não confirmou a remoção do app: remova-o no admin da Shopify (Configurações → Apps).',
  approveOtherConnected:
    'Não aprovada: outra loja desta plataforma está conectada, ou BFF_SHOPIFY_SHOP / BFF_NUVEMSHOP_STORE_ID nomeia outra loja. Desconecte a outra (ou corrija a variável) e aprove de novo.',
  approveGone: 'Esta instalação não espera mais aprovação (já aprovada, recusada ou vencida depois de 24 h).',
};
type StoreMessages = typeof PT_BR;

const EN: StoreMessages = {
  navStores: 'Stores',
  storesTitle: 'Connected stores',
  storesIntro: 'The stores orders come from, and whose checkout shows the shipping rates.',
  noStores: 'No store connected yet.',
  colStore: 'Store',
  colState: 'Connection',
  colToken: 'Token',
  colCarrier: 'Rates at checkout',
  colWebhooks: 'Webhooks',
  colAction: 'Action',
  connected: 'Connected',
  disconnected: 'Disconnected',
  kinds: {
    static: 'static',
    client_credentials: 'app credentials',
    expiring: 'renews itself',
    nuvemshop: 'app',
  },
  carriers: { registered: 'registered', missing: 'not registered', error: 'registration failed' },
  expires: (at: string) => `renews before ${at}`,
  renewFailed: (tries: number, why: string) => `Renewal failed (${tries}×), trying again: ${why}`,
  disconnect: 'Disconnect',
  reconnectShopify: 'To reconnect, install the app again from its install link.',
  reconnectNuvemshop: 'To reconnect, install the app again:',
  installNuvemshop: 'install on Nuvemshop',
  pendingTitle: 'Installs waiting for approval',
  pendingIntro:
    'These stores installed the app, but get no rates and send no orders until you approve them. Approve only your own store: any store can install a listed app.',
  colInstalledAt: 'Installed at',
  approve: 'Approve',
  reject: 'Reject',
  revokeFailed:
    'Disconnected here, but Shopify did not confirm the app was removed: remove it in the Shopify admin (Settings → Apps).',
  approveOtherConnected:
    'Not approved: another store of this platform is connected, or BFF_SHOPIFY_SHOP / BFF_NUVEMSHOP_STORE_ID names another store. Disconnect the other one (or fix the variable) and approve again.',
  approveGone:
    'This install no longer waits for approval (already approved, rejected, or expired after 24 h).',
};

const ES: StoreMessages = {
  navStores: 'Tiendas',
  storesTitle: 'Tiendas conectadas',
  storesIntro: 'Las tiendas de donde llegan los pedidos y en cuyo checkout aparecen los envíos.',
  noStores: 'Ninguna tienda conectada todavía.',
  colStore: 'Tienda',
  colState: 'Conexión',
  colToken: 'Token',
  colCarrier: 'Envío en el checkout',
  colWebhooks: 'Webhooks',
  colAction: 'Acción',
  connected: 'Conectada',
  disconnected: 'Desconectada',
  kinds: {
    static: 'fijo',
    client_credentials: 'credenciales de la app',
    expiring: 'se renueva solo',
    nuvemshop: 'de la app',
  },
  carriers: { registered: 'registrado', missing: 'no registrado', error: 'error al registrar' },
  expires: (at: string) => `se renueva antes de ${at}`,
  renewFailed: (tries: number, why: string) => `La renovación falló (${tries}×), se intenta de nuevo: ${why}`,
  disconnect: 'Desconectar',
  reconnectShopify: 'Para reconectar, instale la app de nuevo desde su enlace de instalación.',
  reconnectNuvemshop: 'Para reconectar, instale la app de nuevo:',
  installNuvemshop: 'instalar en Nuvemshop',
  pendingTitle: 'Instalaciones esperando aprobación',
  pendingIntro:
    'Estas tiendas instalaron la app, pero no reciben envíos ni mandan pedidos hasta que usted las apruebe. Apruebe solo su tienda: cualquier tienda puede instalar una app publicada.',
  colInstalledAt: 'Instaló el',
  approve: 'Aprobar',
  reject: 'Rechazar',
  revokeFailed:
    'Desconectada aquí, pero Shopify no confirmó la eliminación de la app: elimínela en el admin de Shopify (Configuración → Apps).',
  approveOtherConnected:
    'No aprobada: otra tienda de esta plataforma está conectada, o BFF_SHOPIFY_SHOP / BFF_NUVEMSHOP_STORE_ID nombra otra tienda. Desconecte la otra (o corrija la variable) y apruebe de nuevo.',
  approveGone: 'Esta instalación ya no espera aprobación (ya aprobada, rechazada o vencida tras 24 h).',
};

export const STORE_MESSAGES: Record<Locale, StoreMessages> = { 'pt-BR': PT_BR, en: EN, es: ES };

export interface StoresView {
  s: StoreMessages;
  lang: Locale;
  csrf: string;
  stores: readonly StoreView[];
  /** Installs held for approval: "approve" / "reject" beside each. */
  pending?: readonly PendingView[];
  installs: { shopify: boolean; nuvemshop: string | undefined };
  /** The last disconnect or reject could not uninstall the app at Shopify (it was disconnected here all the same). */
  revokeFailed?: boolean;
  /** The last "approve" did nothing, and why: another store is connected or configured, or the install is gone. */
  approveRefused?: 'other_connected' | 'not_found' | undefined;
  /**
   * The privacy requests section (customers/data_request, redactions, ARCHITECTURE "Connected stores"): the privacy
   * module supplies it and `storesBody` renders it under its heading, `#privacy-requests`; absent, no section.
   */
  privacyRequests?: Html | undefined;
}

function storeRow(view: StoresView, store: StoreView): Html {
  const { s } = view;
  const token = store.connected
    ? html`${s.kinds[store.token.kind]}${store.token.expiresAt ? html` <span class="muted">${s.expires(formatWhen(store.token.expiresAt, view.lang, true))}</span>` : ''}${
        store.renewal
          ? html`<br><span class="warn">${s.renewFailed(store.renewal.tries, store.renewal.error)}</span>`
          : ''
      }`
    : '—';
  const reconnect =
    store.platform === 'shopify'
      ? html`<p>${s.reconnectShopify}</p>`
      : html`<p>${s.reconnectNuvemshop} ${view.installs.nuvemshop ? html`<a href="${view.installs.nuvemshop}">${s.installNuvemshop}</a>` : ''}</p>`;
  const action = store.connected ? storeAction(view, 'disconnect', store, s.disconnect) : reconnect;
  return html`<tr>
<th scope="row">${store.platform === 'shopify' ? 'Shopify' : 'Nuvemshop'} <span class="code domain">${store.shop}</span></th>
<td>${store.connected ? s.connected : html`<strong>${s.disconnected}</strong>`}</td>
<td>${token}</td>
<td>${s.carriers[store.carrier]}</td>
<td class="code wrap">${store.webhooks.join(', ') || '—'}</td>
<td><div class="actions">${action}</div></td>
</tr>`;
}

const platformName = (platform: StoreView['platform']) => (platform === 'shopify' ? 'Shopify' : 'Nuvemshop');

/** A form posting one store to one desk action, with the desk's CSRF token (as "disconnect"). */
function storeAction(
  view: StoresView,
  action: string,
  store: Pick<StoreView, 'platform' | 'shop'>,
  label: string,
) {
  return html`<form method="post" action="/admin/stores/${action}">
<input type="hidden" name="csrf" value="${view.csrf}"><input type="hidden" name="platform" value="${store.platform}"><input type="hidden" name="shop" value="${store.shop}">
<button type="submit">${label}</button></form>`;
}

/** The installs held for approval, "approve" and "reject" beside each; nothing when none waits. */
function pendingSection(view: StoresView): Html | '' {
  const { s } = view;
  const pending = view.pending ?? [];
  if (pending.length === 0) return '';
  return html`<section>
<h2 id="pending-title">${s.pendingTitle}</h2>
<p>${s.pendingIntro}</p>
<div class="table-scroll" role="region" aria-labelledby="pending-title" tabindex="0">
<table>
<thead><tr><th scope="col">${s.colStore}</th><th scope="col">${s.colInstalledAt}</th><th scope="col">${s.colAction}</th></tr></thead>
<tbody>${pending.map(
    (p) => html`<tr>
<th scope="row">${platformName(p.platform)} <span class="code domain">${p.shop}</span></th>
<td>${formatWhen(p.installedAt, view.lang, true)}</td>
<td><div class="actions">${storeAction(view, 'approve', p, s.approve)} ${storeAction(view, 'reject', p, s.reject)}</div></td>
</tr>`,
  )}</tbody>
</table>
</div>
</section>`;
}

/** The stores and their connections, "disconnect" beside each connected one, how to reconnect beside the others. */
export function storesBody(view: StoresView): Html {
  const { s } = view;
  return html`<h1>${s.storesTitle}</h1>
<p class="lead">${s.storesIntro}</p>
${view.revokeFailed ? html`<p class="warn" role="status">${s.revokeFailed}</p>` : ''}
${
  view.approveRefused
    ? html`<p class="warn" role="status">${view.approveRefused === 'other_connected' ? s.approveOtherConnected : s.approveGone}</p>`
    : ''
}
${pendingSection(view)}
${
  view.stores.length === 0
    ? html`<p class="empty">${s.noStores}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="stores-caption" tabindex="0">
<table>
<caption id="stores-caption">${s.storesTitle}</caption>
<thead><tr><th scope="col">${s.colStore}</th><th scope="col">${s.colState}</th><th scope="col">${s.colToken}</th><th scope="col">${s.colCarrier}</th><th scope="col">${s.colWebhooks}</th><th scope="col">${s.colAction}</th></tr></thead>
<tbody>${view.stores.map((store) => storeRow(view, store))}</tbody>
</table>
</div>`
}
${view.privacyRequests ?? ''}`;
}
