import type { Messages } from '../messages.ts';
import { say, selectAll } from './ui.ts';

/**
 * The ledger page: "select all" for the created labels of the page, the print button counting the selection, and no
 * print of nothing (the form itself is a plain GET of the API's print URL, so it prints without the script too).
 */
export function mountLabels(t: Messages): void {
  const form = document.querySelector<HTMLFormElement>('[data-print-form]');
  if (!form) return;
  const boxes = [...form.querySelectorAll<HTMLInputElement>('input[data-select]')];
  const all = form.querySelector<HTMLInputElement>('input[data-select-all]');
  const button = form.querySelector<HTMLButtonElement>('[data-print]');
  const status = form.querySelector('[data-print-status]');
  selectAll(all, boxes, (chosen) => {
    if (button) button.textContent = chosen === 0 ? t.printSelected : t.printCount(chosen);
    if (chosen > 0) say(status, '');
  });
  form.addEventListener('submit', (event) => {
    if (boxes.some((box) => box.checked)) return;
    event.preventDefault();
    say(status, t.printNone, true);
    (boxes[0] ?? button)?.focus();
  });
}
