// The demo storefront's own code: it only tells the calculator what is in the cart.
(() => {
  const brl = (n) => n.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
  const calculator = () => document.querySelector('shipping-calculator');
  const cepText = (cep) => (/^\d{8}$/.test(cep) ? `${cep.slice(0, 5)}-${cep.slice(5)}` : cep);

  // The cart, carried from the product page to the cart and on to the checkouts (this tab only).
  const CART_KEY = 'loja-demo:cart';
  const storedCart = () => {
    try {
      const cart = JSON.parse(sessionStorage.getItem(CART_KEY) || 'null');
      return Array.isArray(cart) ? cart : undefined;
    } catch {
      return undefined;
    }
  };
  const storeCart = (cart) => {
    try {
      sessionStorage.setItem(CART_KEY, JSON.stringify(cart));
    } catch {
      // Storage refused (private mode): the cart lives on this page only.
    }
  };

  // The shipping the shopper has chosen, in the shopper's words, as a store's summary line says it: it listens to
  // shipping-select and trusts it alone for the price. Pages without the line (the side-by-side checkouts) skip it.
  const chosen = document.getElementById('chosen');
  if (chosen)
    document.addEventListener('shipping-select', (event) => {
      const { cep, rate } = event.detail;
      chosen.dataset.price = rate ? String(rate.free === true ? 0 : rate.price) : '';
      chosen.textContent = rate
        ? `Frete: ${rate.label} — ${rate.free === true ? 'grátis' : brl(rate.price)}, para o CEP ${cepText(cep)}`
        : 'Frete: escolha uma opção acima';
    });

  // The store's shipping rules in force (GET /api/shipping-rules, written on /admin/rules), said under the calculator
  // as a shopper reads them: the service's name and what the rule does ("Correios PAC com 50 % de desconto para SP,
  // RJ…"), never the rule's id nor the service's.
  const said = document.getElementById('shipping-rules');
  const SERVICE_NAMES = {
    'correios-pac': 'Correios PAC',
    'correios-sedex': 'Correios SEDEX',
    'correios-mini': 'Correios Mini Envios',
  };
  const serviceName = (id) => SERVICE_NAMES[id] ?? id;
  const list = (words) =>
    words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} e ${words[words.length - 1]}`;
  const number = (n) => n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });
  const markup = ({ markupPercent: percent, markupBRL: amount }) =>
    list(
      [
        percent ? `${number(Math.abs(percent))} % ${percent < 0 ? 'de desconto' : 'a mais'}` : '',
        amount ? `${brl(Math.abs(amount))} ${amount < 0 ? 'de desconto' : 'a mais'}` : '',
      ].filter(Boolean),
    );
  const effect = (then) =>
    then.free
      ? 'grátis'
      : then.hide
        ? 'não é oferecido'
        : then.label !== undefined
          ? `aparece como “${then.label}”`
          : then.priceBRL !== undefined
            ? `por ${brl(then.priceBRL)}`
            : then.extraDays !== undefined
              ? `com ${then.extraDays} ${then.extraDays === 1 ? 'dia útil' : 'dias úteis'} a mais de prazo`
              : `com ${markup(then)}`;
  const conditions = (when) =>
    [
      when.ufs ? `para ${list(when.ufs)}` : '',
      when.cepRanges ? 'para alguns CEPs' : '',
      when.minSubtotalBRL !== undefined ? `em compras a partir de ${brl(when.minSubtotalBRL)}` : '',
      when.maxWeightKg !== undefined ? `até ${number(when.maxWeightKg)} kg` : '',
      when.skus ? 'com alguns produtos no carrinho' : '',
    ].filter(Boolean);
  const sentence = ({ when = {}, then }) =>
    [
      when.services ? list(when.services.map(serviceName)) : 'Todo frete',
      effect(then),
      ...conditions(when),
    ].join(' ');
  const rulesUrl = document.querySelector('script[data-rules-url]')?.dataset.rulesUrl;
  if (said && rulesUrl)
    fetch(rulesUrl)
      .then((res) => res.json())
      .then(({ rules }) => {
        said.textContent =
          rules.length === 0
            ? 'Esta loja não tem regras de frete: o preço é o da plataforma.'
            : `Regras de frete desta loja: ${rules.map(sentence).join('; ')}.`;
      })
      .catch(() => undefined);

  const product = document.querySelector('main.product');
  if (product) {
    const base = JSON.parse(product.dataset.product);
    const quantity = document.getElementById('quantity');
    const count = () => Math.max(1, Math.min(20, Number(quantity.value) || 1));
    quantity.addEventListener('input', () => {
      calculator().setAttribute('items', JSON.stringify([{ ...base, quantity: count() }]));
    });
    const add = document.getElementById('add-to-cart');
    add?.addEventListener('click', () => {
      const cart = storedCart() ?? [];
      const line = cart.find((item) => item.name === base.name);
      if (line) line.quantity = Math.min(20, line.quantity + count());
      else cart.push({ ...base, quantity: count() });
      storeCart(cart);
      window.location.assign('cart.html');
    });
    // The side-by-side checkouts quote the cart when there is one.
    const cart = storedCart();
    if (product.classList.contains('side-by-side') && cart && cart.length > 0) {
      document.getElementById('produto').textContent = 'Seu carrinho';
      product.querySelector('.price').textContent = cart
        .map((item) => `${item.quantity} × ${item.name}`)
        .join(', ');
      for (const element of product.querySelectorAll('label[for="quantity"], #quantity'))
        element.hidden = true;
      calculator().setAttribute('items', JSON.stringify(cart));
    }
  }

  // A product with variants: the calculator says "Frete a partir de" (its variants attribute) until a size is
  // chosen; then the store gives it that variant as the cart, quoted exactly.
  const sizes = document.getElementById('variant');
  if (sizes) {
    const variants = JSON.parse(calculator().getAttribute('variants'));
    sizes.addEventListener('change', (event) => {
      const variant = variants[Number(event.target.value)];
      calculator().setAttribute('items', JSON.stringify([{ ...variant, quantity: 1 }]));
    });
  }

  const lines = document.getElementById('cart-lines');
  if (lines) {
    const cart = storedCart() ?? [
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
      storeCart(cart);
      const checkout = document.getElementById('to-checkout');
      if (checkout) checkout.hidden = cart.length === 0;
    };
    document.getElementById('add-mug').addEventListener('click', () => {
      cart.push({ name: 'Caneca', quantity: 1, unitPriceBRL: 49.9, weightKg: 0.4 });
      render();
    });
    render();
  }
})();
