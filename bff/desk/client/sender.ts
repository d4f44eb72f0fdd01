/**
 * The labels' sender, remembered in this browser when the merchant asks ("Lembrar este remetente"): the issue form
 * and the orders page keep it in one place, each field by its path (`endereco.cep`) under `sender.`.
 */
const SENDER_KEY = 'frete-kit.desk.sender';

function senderFields(form: HTMLFormElement): [path: string, input: HTMLInputElement][] {
  return [...form.querySelectorAll<HTMLInputElement>('input[name^="sender."]')].map((input) => [
    input.name.slice('sender.'.length),
    input,
  ]);
}

/** Saves the form's sender when "remember" is ticked, forgets it when it is not. */
export function rememberSender(form: HTMLFormElement): void {
  const remember = form.querySelector<HTMLInputElement>('[data-remember-sender]');
  if (!remember) return;
  try {
    if (!remember.checked) {
      localStorage.removeItem(SENDER_KEY);
      return;
    }
    const saved = Object.fromEntries(senderFields(form).map(([path, input]) => [path, input.value]));
    localStorage.setItem(SENDER_KEY, JSON.stringify(saved));
  } catch {
    // Storage off (private mode, a policy): the sender is simply not remembered.
  }
}

/** Fills the form's sender from what this browser remembers, and ticks "remember". */
export function restoreSender(form: HTMLFormElement): void {
  let saved: unknown;
  try {
    saved = JSON.parse(localStorage.getItem(SENDER_KEY) ?? 'null');
  } catch {
    return;
  }
  if (typeof saved !== 'object' || saved === null) return;
  for (const [path, input] of senderFields(form)) {
    const value = (saved as Record<string, unknown>)[path];
    if (typeof value === 'string') input.value = value;
  }
  const remember = form.querySelector<HTMLInputElement>('[data-remember-sender]');
  if (remember) remember.checked = true;
}
