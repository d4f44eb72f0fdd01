// The demo storefront's own code: it only tells the calculator what is in the cart.
(() => {
  const brl = (n) => n.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
  const calculator = () => document.querySelector('shipping-calculator');
  const cepText = (cep) => (/^\d{8}$/.test(cep) ? `${cep.slice(0, 5)}-${cep.slice(5)}` : cep);

  // What a checkout holds: it listens to the three events and trusts shipping-select alone for the price.
  const chosen = document.getElementById('chosen');
  const last = document.getElementById('last-event');
  document.addEventListener('shipping-select', (event) => {
    const { cep, rate } = event.detail;
    chosen.dataset.price = rate ? String(rate.free === true ? 0 : rate.price) : '';
    chosen.textContent = rate
      ? `Escolhido: ${rate.label} — ${rate.free === true ? 'grátis' : brl(rate.price)} (CEP ${cepText(cep)})`
      : 'Escolhido: nenhum frete';
  });
  document.addEventListener('shipping-rates', (event) => {
    const { cep, rates, reason } = event.detail;
    last.textContent = `shipping-rates: ${rates.length} opções para ${cepText(cep)}${reason ? ` (${reason})` : ''}`;
  });
  document.addEventListener('shipping-error', (event) => {
    last.textContent = `shipping-error: ${event.detail.code}`;
  });

  // The store's shipping rules in force (GET /api/shipping-rules, written on /admin/rules), said under the calculator.
  const said = document.getElementById('shipping-rules');
  const effect = (then) =>
    then.free
      ? 'frete grátis'
      : then.hide
        ? 'opção oculta'
        : then.label !== undefined
          ? `nome “${then.label}”`
          : then.priceBRL !== undefined
            ? `preço fixo ${brl(then.priceBRL)}`
            : then.extraDays !== undefined
              ? `+${then.extraDays} dias úteis`
              : [
                  then.markupPercent ? `${then.markupPercent > 0 ? '+' : ''}${then.markupPercent} %` : '',
                  then.markupBRL ? `${then.markupBRL > 0 ? '+' : ''}${brl(then.markupBRL)}` : '',
                ]
                  .filter(Boolean)
                  .join(' ');
  const rulesUrl = document.querySelector('script[data-rules-url]')?.dataset.rulesUrl;
  if (said && rulesUrl)
    fetch(rulesUrl)
      .then((res) => res.json())
      .then(({ rules }) => {
        said.textContent =
          rules.length === 0
            ? 'Esta loja não tem regras de frete: o preço é o da plataforma.'
            : `Regras de frete desta loja: ${rules
                .map(
                  ({ id, when = {}, then }) =>
                    `${id} (${[when.services?.join('/'), when.ufs?.join(', ')].filter(Boolean).join(' · ') || 'todas as opções'}: ${effect(then)})`,
                )
                .join('; ')}.`;
      })
      .catch(() => undefined);

  const product = document.querySelector('main.product');
  if (product) {
    const base = JSON.parse(product.dataset.product);
    const quantity = document.getElementById('quantity');
    quantity.addEventListener('input', () => {
      const n = Math.max(1, Math.min(20, Number(quantity.value) || 1));
      calculator().setAttribute('items', JSON.stringify([{ ...base, quantity: n }]));
    });
  }

  const lines = document.getElementById('cart-lines');
  if (lines) {
    const cart = [
      { name: 'Camiseta Básica', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 },
      { name: 'Boné', quantity: 1, unitPriceBRL: 59.9, weightKg: 0.2 },
    ];
    const emptyRow = () => {
      const row = document.createElement('tr');
      const cell = document.createElement('td');
      cell.colSpan = 4;
      cell.className = 'empty-cart';
      cell.textContent = 'Seu carrinho está vazio.';
      row.append(cell);
      return row;
    };
    const render = () => {
      if (cart.length === 0) lines.replaceChildren(emptyRow());
      else
        lines.replaceChildren(
          ...cart.map((item, index) => {
            const row = document.createElement('tr');
            const name = document.createElement('td');
            name.textContent = item.name;
            const qty = document.createElement('td');
            const input = document.createElement('input');
            input.type = 'number';
            input.min = '1';
            input.value = String(item.quantity);
            input.setAttribute('aria-label', `Quantidade de ${item.name}`);
            input.addEventListener('change', () => {
              item.quantity = Math.max(1, Number(input.value) || 1);
              render();
            });
            qty.append(input);
            const price = document.createElement('td');
            price.textContent = brl(item.quantity * item.unitPriceBRL);
            const actions = document.createElement('td');
            const remove = document.createElement('button');
            remove.type = 'button';
            remove.textContent = 'Remover';
            remove.setAttribute('aria-label', `Remover ${item.name}`);
            remove.addEventListener('click', () => {
              cart.splice(index, 1);
              render();
            });
            actions.append(remove);
            row.append(name, qty, price, actions);
            return row;
          }),
        );
      document.getElementById('subtotal').textContent = brl(
        cart.reduce((s, i) => s + i.quantity * i.unitPriceBRL, 0),
      );
      // The cart page hands the calculator its items through the property; [] says the cart is empty.
      calculator().items = cart.map((item) => ({ ...item }));
    };
    document.getElementById('add-mug').addEventListener('click', () => {
      cart.push({ name: 'Caneca', quantity: 1, unitPriceBRL: 49.9, weightKg: 0.4 });
      render();
    });
    render();
  }
})();
