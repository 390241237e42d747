// The player's settings, kept in the browser: the card size (the board's largest card; the board
// still fits the window), a four-colour deck (diamonds blue, clubs green), the card back, how fast
// moves animate (or not at all), sounds (off until chosen), autoplay to the foundations in every
// game that offers it, and a left-handed layout (the stock and foundations change sides). A panel
// over the page changes them; the page follows at once, and after a reload.

import { t } from './i18n.js';
import { AUTOPLAY, DEFAULTS, saveSettings, settings } from './store.js';
import { h } from './ui.js';

// (what is kept, and its defaults, are store.js's: the page's first module reads them too)
export { AUTOPLAY, DEFAULTS, settings };
/** The largest card width of each size, in CSS px (the window may allow less). */
export const CARD_SIZES = { small: 64, medium: 96, large: 140 };
/** The backs a card may have (a class on the page: ``back-NAME``). */
export const CARD_BACKS = ['blue', 'red', 'green'];
/** How long a move's animation lasts, by speed, in ms. */
export const SPEEDS = { off: 0, slow: 280, normal: 140, fast: 70 };

/** Change one setting, and the page with it. */
export function setSetting(name, value) {
  saveSettings({ ...settings(), [name]: value });
  applySettings();
}

/** The largest card width the player chose. */
export function maxCardWidth() {
  return CARD_SIZES[settings().cardSize] ?? CARD_SIZES.medium;
}

/** How long a move animates, in ms (0: not at all, by the setting or the system's reduced
 * motion). */
export function animationMs() {
  if (globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return 0;
  return SPEEDS[settings().speed] ?? SPEEDS.normal;
}

/** The settings on the page: classes on the document, and every board drawn again. */
export function applySettings() {
  const s = settings();
  const root = document.documentElement;
  root.classList.toggle('four-colour', Boolean(s.fourColour));
  root.classList.toggle('still', (SPEEDS[s.speed] ?? 1) === 0);
  root.classList.toggle('left-handed', Boolean(s.leftHanded));
  for (const back of CARD_BACKS) root.classList.toggle(`back-${back}`, back === s.cardBack);
  window.dispatchEvent(new Event('resize'));
}

/** The settings panel, over the page. */
export function openSettings() {
  const s = settings();
  const change = setSetting;
  const select = (id, name, values, words) => h('select', { id, onchange: (e) => change(name, e.target.value) },
    values.map((value) => h('option', { value, selected: value === s[name] }, words(value))));
  const box = (id, name) => h('input', { type: 'checkbox', id, checked: Boolean(s[name]), onchange: (e) => change(name, e.target.checked) });
  const row = (id, label, field, check = false) => h('p', { class: 'setting' },
    ...(check ? [field, ' ', h('label', { for: id }, label)] : [h('label', { for: id }, label), ' ', field]));
  const dialog = h('dialog', { class: 'rules settings', 'aria-labelledby': 'settings-title' },
    h('div', { class: 'rules-head' },
      h('h2', { id: 'settings-title' }, t('settings.title')),
      h('button', { type: 'button', class: 'close', onclick: () => dialog.close() }, t('button.close'))),
    row('set-card-size', t('settings.cardSize'), select('set-card-size', 'cardSize', Object.keys(CARD_SIZES), (v) => t(`settings.size.${v}`))),
    row('set-four', t('settings.fourColour'), box('set-four', 'fourColour'), true),
    row('set-back', t('settings.cardBack'), select('set-back', 'cardBack', CARD_BACKS, (v) => t(`settings.back.${v}`))),
    row('set-speed', t('settings.speed'), select('set-speed', 'speed', Object.keys(SPEEDS), (v) => t(`settings.speed.${v}`))),
    row('set-sounds', t('settings.sounds'), box('set-sounds', 'sounds'), true),
    row('set-autoplay', t('settings.autoplay'), box('set-autoplay', 'autoplay'), true),
    row('set-left', t('settings.leftHanded'), box('set-left', 'leftHanded'), true),
    h('p', { class: 'small' }, t('settings.kept')));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
