// The controls that fit the game on screen: a Deal button only where there is a stock, the keys
// help listing the game's own piles (its tableau count, its reserves by their name, its
// foundations), a Rules button; the keys help opens over the page (it does not push the board).

import { kindName } from './cards.js';
import { t } from './i18n.js';
import { keyOf } from './layout.js';
import { STOCK, WASTE, pileKind } from './notation.js';
import { h } from './ui.js';

function keyRange(ids) {
  const keys = ids.map((id) => (keyOf(id) === ' ' ? t('keys.space') : keyOf(id)));
  if (keys.length <= 2) return keys.join(' ');
  return pileKind(ids[0]) === 'r' ? keys.join(' ') : `${keys[0]} \u2026 ${keys[keys.length - 1]}`;
}

function numberRange(ids) {
  return ids.length > 1 ? `1 \u2026 ${ids.length}` : '1';
}

/** The keys of the board for a game with ``pileIds`` of ``variant``: [key, what] pairs. */
export function gameKeys(pileIds, variant) {
  const of = (kind) => pileIds.filter((id) => pileKind(id) === kind);
  const rows = [];
  for (const kind of ['t', 'r']) {
    const ids = of(kind);
    if (ids.length) rows.push([keyRange(ids), t('keys.pick', numberRange(ids), kindName(kind, variant, true))]);
  }
  if (pileIds.includes(WASTE)) rows.push(['x', t('keys.waste')]);
  const f = of('f');
  if (f.length) rows.push([f.length > 1 ? `F1 \u2026 F${f.length}` : 'F1', t('keys.foundations', numberRange(f))]);
  rows.push(['+ / -', t('keys.group')]);
  if (pileIds.includes(STOCK)) rows.push([t('keys.space'), t('keys.deal')]);
  rows.push(['f', t('keys.home')], ['a', t('keys.auto')], [t('keys.hintKey'), t('keys.hint')],
    ['u', t('keys.undo')], ['R R', t('keys.resign')], ['Esc', t('keys.drop')], ['?', t('keys.help')]);
  return rows;
}

export function keysHelp(pileIds, variant) {
  return h('details', { class: 'keys' },
    h('summary', {}, t('keys.title')),
    h('table', {}, h('tbody', {}, gameKeys(pileIds, variant).map(([key, what]) =>
      h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, key)), h('td', {}, what))))));
}
