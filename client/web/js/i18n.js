// The words of the page, one table per language (i18n/en.js, i18n/fr.js): the browser's
// language chooses, the switch in the header changes it (kept in the browser). ``t(key, ...)``
// gives a key's text; a table's value is a string or a function of the arguments.
//
// Every key of one table is in the other (tests/web/js/i18n.test.mjs); a key missing from both
// shows as the key itself, which that test also catches for the keys the modules use.

import { en } from './i18n/en.js';
import { fr } from './i18n/fr.js';

export const LANGUAGES = { en, fr };
const KEY = 'patience-club.lang';

function stored() {
  try { return globalThis.localStorage?.getItem(KEY) ?? null; } catch { return null; }
}

/** The language to use: the one chosen here before, else the browser's, else English. */
export function preferredLanguage(chosen = stored(), browser = globalThis.navigator?.languages ?? [globalThis.navigator?.language]) {
  if (chosen && LANGUAGES[chosen]) return chosen;
  for (const tag of browser ?? []) {
    const base = String(tag ?? '').slice(0, 2).toLowerCase();
    if (LANGUAGES[base]) return base;
  }
  return 'en';
}

let current = preferredLanguage();

export function language() {
  return current;
}

/** Use ``lang`` from now on (and remember it); the page draws its screen again. */
export function setLanguage(lang, remember = true) {
  if (!LANGUAGES[lang]) return;
  current = lang;
  if (remember) {
    try { globalThis.localStorage?.setItem(KEY, lang); } catch { /* kept for this page only */ }
  }
  if (globalThis.document) document.documentElement.lang = lang;
}

/** A key's words in the current language (English when the table lacks it). */
export function t(key, ...args) {
  const value = LANGUAGES[current][key] ?? en[key];
  if (value === undefined) return key;
  return typeof value === 'function' ? value(...args) : value;
}
