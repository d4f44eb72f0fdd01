import type { Locale } from '../../shared/locale.ts';

/** The tracking page's own words (the element brings its own), per language. */
const pt = {
  title: 'Rastrear pedido',
  lead: 'Digite o código de rastreamento que enviamos por e-mail (ex.: AA123456785BR), ou o número do pedido e o CEP de entrega.',
  back: 'Voltar para a loja',
  logoAlt: 'Logo da loja',
  order: (id: string) => `Pedido ${id}`,
  orderLead: 'Onde está cada volume do seu pedido.',
  parcelLead: 'Onde está o seu envio.',
  parcel: 'Seu envio',
  badLinkTitle: 'Link inválido ou expirado',
  badLinkLead:
    'Este link de rastreamento não vale mais. Busque o pedido pelo número e pelo CEP de entrega, ou pelo código de rastreamento.',
};

export type PageTexts = typeof pt;

export const PAGE_TEXTS: Record<Locale, PageTexts> = {
  'pt-BR': pt,
  en: {
    title: 'Track your order',
    lead: 'Enter the tracking code we e-mailed you (e.g. AA123456785BR), or the order number and the delivery CEP.',
    back: 'Back to the store',
    logoAlt: 'Store logo',
    order: (id) => `Order ${id}`,
    orderLead: 'Where each parcel of your order is.',
    parcelLead: 'Where your parcel is.',
    parcel: 'Your parcel',
    badLinkTitle: 'Invalid or expired link',
    badLinkLead:
      'This tracking link no longer works. Find the order by its number and delivery CEP, or by its tracking code.',
  },
  es: {
    title: 'Seguir tu pedido',
    lead: 'Escribe el código de seguimiento que te enviamos por correo (ej.: AA123456785BR), o el número de pedido y el CEP de entrega.',
    back: 'Volver a la tienda',
    logoAlt: 'Logo de la tienda',
    order: (id) => `Pedido ${id}`,
    orderLead: 'Dónde está cada paquete de tu pedido.',
    parcelLead: 'Dónde está tu envío.',
    parcel: 'Tu envío',
    badLinkTitle: 'Enlace inválido o vencido',
    badLinkLead:
      'Este enlace de seguimiento ya no vale. Busca el pedido por su número y el CEP de entrega, o por el código de seguimiento.',
  },
};
