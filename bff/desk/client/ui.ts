import type { Messages } from '../messages.ts';
import { callApi, NoAnswer, SessionExpired } from './api.ts';

/** Writes a status line (a live region in the page): read out by screen readers, styled as an error when it is one. */
export function say(region: Element | null, text: string, error = false): void {
  if (!region) return;
  region.textContent = text;
  region.classList.toggle('error', error);
}

/** What the merchant reads when a call failed for a reason that is not the API's answer. */
export function failureText(t: Messages, error: unknown): string {
  if (error instanceof SessionExpired) return t.sessionExpired;
  if (error instanceof NoAnswer) return t.network;
  return t.failed(error instanceof Error ? error.message : String(error));
}

/** The API's answer to a POST; undefined once `region` says why there is none (no answer, the session gone). */
export async function answerOf(t: Messages, region: Element | null, path: string, body: unknown) {
  try {
    return await callApi(path, body);
  } catch (error) {
    say(region, failureText(t, error), true);
    return undefined;
  }
}

/**
 * Runs an action of a button once at a time: the button says it is busy (`aria-busy`) meanwhile, and a second click
 * does nothing, so one click sends one request.
 */
export async function once(button: HTMLElement | null, action: () => Promise<void>): Promise<void> {
  if (!button || button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  try {
    await action();
  } finally {
    button.setAttribute('aria-busy', 'false');
  }
}

/**
 * Enables the controls under `root` that the page rendered `disabled` until the script gives them their action
 * (`NEEDS_SCRIPT`, bff/desk/view-parts.ts). Called once the actions are bound, and on rows the server renders anew.
 */
export function enableScriptControls(root: ParentNode): void {
  for (const control of root.querySelectorAll<HTMLButtonElement>('[data-needs-script]'))
    control.disabled = false;
}

/** A new element, with its class and its text when given. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string) {
  const created = document.createElement(tag);
  if (className) created.className = className;
  if (text !== undefined) created.textContent = text;
  return created;
}

/** An element of the page the script needs; a missing one is a bug of the page, said plainly. */
export function required<T extends Element>(root: ParentNode, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`the desk page has no ${selector}`);
  return found;
}

/**
 * A "select all" box over a list of boxes (shown only when there are boxes): it checks or clears them all, and reads
 * checked when all are, mixed when some are. `changed` runs with how many are chosen after every change, and once now.
 */
export function selectAll(
  all: HTMLInputElement | null,
  boxes: readonly HTMLInputElement[],
  changed: (chosen: number) => void,
): void {
  const update = () => {
    const chosen = boxes.filter((box) => box.checked).length;
    if (all) {
      all.checked = chosen > 0 && chosen === boxes.length;
      all.indeterminate = chosen > 0 && chosen < boxes.length;
    }
    changed(chosen);
  };
  if (all && boxes.length > 0) {
    all.hidden = false;
    all.addEventListener('change', () => {
      for (const box of boxes) box.checked = all.checked;
      update();
    });
  }
  for (const box of boxes) box.addEventListener('change', update);
  update();
}
