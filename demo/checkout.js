// The demo's emulated checkouts: the cart and CEP of the calculator, asked of the sandbox's Shopify and Nuvemshop
// checkouts, which call the BFF's callbacks as the platforms do. What each shows is drawn beside the calculator.
(() => {
  const section = document.querySelector('section.checkouts');
  if (!section) return;
  const sandbox = section.dataset.sandboxUrl;
  const stores = { shopify: section.dataset.shopifyShop, nuvemshop: section.dataset.nuvemshopStore };
  const brl = (cents) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
  const ddmm = (date) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;
  const sources = {
    callback: 'resposta do BFF, agora',
    cache: 'do cache da plataforma',
    backup: 'frete de contingência: o BFF não respondeu a tempo',
    failed: 'sem opções desta transportadora',
  };

  const render = (article, view) => {
    const list = article.querySelector('.options');
    list.replaceChildren(
      ...view.options.map((option) => {
        const item = document.createElement('li');
        item.dataset.code = option.code;
        item.dataset.amountCents = String(option.amountCents);
        const date = option.maxDeliveryDate ? option.maxDeliveryDate.slice(0, 10) : '';
        const from = option.minDeliveryDate ? option.minDeliveryDate.slice(0, 10) : date;
        item.dataset.maxDate = date;
        item.dataset.minDate = from;
        const price = option.amountCents === 0 ? 'Grátis' : brl(option.amountCents);
        // One date, or the window the store's promise gives (min and max delivery dates, as the checkout shows them).
        // Shopify shows the rate's description, where the BFF writes the promise in the calculator's words.
        const when = option.description
          ? ` · ${option.description}`
          : !date
            ? ''
            : from && from !== date
              ? ` · Chega entre ${ddmm(from)} e ${ddmm(date)}`
              : ` · Chega até ${ddmm(date)}`;
        item.textContent = `${option.name} — ${price}${when}`;
        return item;
      }),
    );
    article.querySelector('.status').textContent =
      view.options.length === 0 && view.source === 'callback'
        ? 'Nenhuma opção para este CEP.'
        : sources[view.source];
    article.dataset.source = view.source;
  };

  const ask = async (platform, cep, items) => {
    const article = section.querySelector(`article[data-platform="${platform}"]`);
    article.querySelector('.status').textContent = 'Calculando no checkout…';
    try {
      const res = await fetch(`${sandbox}/_sandbox/checkouts/${platform}/${stores[platform]}/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cart: { items }, destination: { postalCode: cep } }),
      });
      if (res.status === 404) {
        article.querySelector('.status').textContent =
          `O BFF não está registrado: npm run checkout -- register ${platform} (com o sandbox).`;
        return;
      }
      const view = await res.json();
      if (!res.ok || !Array.isArray(view.options)) {
        article.querySelector('.status').textContent = 'O checkout não pôde calcular este carrinho.';
        return;
      }
      render(article, view);
    } catch {
      article.querySelector('.status').textContent = 'O sandbox não respondeu.';
    }
  };

  document.addEventListener('shipping-rates', (event) => {
    // The calculator's own cart (its `items` property: the attribute or what the page set), as it quoted it.
    const items = document.querySelector('shipping-calculator')?.items ?? [];
    if (items.length === 0 || !event.detail.cep) return;
    for (const platform of Object.keys(stores)) void ask(platform, event.detail.cep, items);
  });
})();
