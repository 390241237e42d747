// The player's settings, kept in the browser: the card size (the board's largest card; the board
// still fits the window), a four-colour deck (diamonds blue, clubs green) and animations. A
// panel over the page changes them; the page follows at once, and after a reload.

import { t } from './i18n.js';
import { h } from './ui.js';

const KEY = 'patience-club.settings';
/** The largest card width of each size, in CSS px (the window may allow less). */
export const CARD_SIZES = { small: 64, medium: 96, large: 140 };
export const DEFAULTS = { cardSize: 'medium', fourColour: false, animations: true };

export function settings() {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}');
    return { ...DEFAULTS, ...(saved && typeof saved === 'object' ? saved : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

function save(values) {
  try { globalThis.localStorage?.setItem(KEY, JSON.stringify(values)); } catch { /* this page only */ }
}

/** The largest card width the player chose. */
export function maxCardWidth() {
  return CARD_SIZES[settings().cardSize] ?? CARD_SIZES.medium;
}

/** The settings on the page: classes on the document, and every board drawn again. */
export function applySettings() {
  const s = settings();
  document.documentElement.classList.toggle('four-colour', Boolean(s.fourColour));
  document.documentElement.classList.toggle('still', !s.animations);
  window.dispatchEvent(new Event('resize'));
}

/** The settings panel, over the page. */
export function openSettings() {
  const s = settings();
  const change = (name, value) => { save({ ...settings(), [name]: value }); applySettings(); };
  const size = h('select', { id: 'set-card-size', onchange: (e) => change('cardSize', e.target.value) },
    Object.keys(CARD_SIZES).map((name) => h('option', { value: name, selected: name === s.cardSize }, t(`settings.size.${name}`))));
  const four = h('input', { type: 'checkbox', id: 'set-four', checked: s.fourColour, onchange: (e) => change('fourColour', e.target.checked) });
  const moving = h('input', { type: 'checkbox', id: 'set-anim', checked: s.animations, onchange: (e) => change('animations', e.target.checked) });
  const dialog = h('dialog', { class: 'rules settings', 'aria-labelledby': 'settings-title' },
    h('div', { class: 'rules-head' },
      h('h2', { id: 'settings-title' }, t('settings.title')),
      h('button', { type: 'button', class: 'close', onclick: () => dialog.close() }, t('button.close'))),
    h('p', { class: 'setting' }, h('label', { for: 'set-card-size' }, t('settings.cardSize')), ' ', size),
    h('p', { class: 'setting' }, four, ' ', h('label', { for: 'set-four' }, t('settings.fourColour'))),
    h('p', { class: 'setting' }, moving, ' ', h('label', { for: 'set-anim' }, t('settings.animations'))),
    h('p', { class: 'small' }, t('settings.kept')));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
