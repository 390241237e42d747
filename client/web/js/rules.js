// How to play each game, in a panel over the page (a modal dialog), from the board and from home:
// layout, goal, moves, stock and redeals, scoring, options and a tip, in the page's language.
// The texts are content, kept by variant id like any other page text; a game the client has no
// text for (one a server adds) says so.

import { language, t } from './i18n.js';
import { rulesEn } from './rules/en.js';
import { rulesFr } from './rules/fr.js';
import { h } from './ui.js';

export const RULES = { en: rulesEn, fr: rulesFr };

const SECTIONS = [['layout', 'rules.layout'], ['goal', 'rules.goal'], ['moves', 'rules.moves'], ['stock', 'rules.stock'],
  ['scoring', 'rules.scoring'], ['options', 'rules.options'], ['tip', 'rules.tip']];

/** The rules of ``variant`` (a VariantInfo) as elements, or a line saying there are none. */
export function rulesBody(variant) {
  const text = RULES[language()]?.[variant.id] ?? RULES.en[variant.id];
  if (!text) return [h('p', {}, t('rules.none'))];
  return SECTIONS.filter(([field]) => text[field]).map(([field, title]) => h('section', { class: `rules-${field}` },
    h('h3', {}, t(title)),
    Array.isArray(text[field]) ? h('ul', {}, text[field].map((line) => h('li', {}, line))) : h('p', {}, text[field])));
}

/** Open the rules of ``variant`` over the page; Esc or Close shuts them. */
export function openRules(variant) {
  const dialog = h('dialog', { class: 'rules', 'aria-labelledby': 'rules-title' },
    h('div', { class: 'rules-head' },
      h('h2', { id: 'rules-title' }, t('rules.title', variant.name)),
      h('button', { type: 'button', class: 'close', onclick: () => dialog.close() }, t('button.close'))),
    rulesBody(variant));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
