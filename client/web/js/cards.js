// Cards, piles and moves in words and glyphs, in the page's language: what a screen reader says,
// what a card face shows, and how the page names a pile in its messages ("tableau 4",
// "free cell 1", "foundation 2"). A pile's name comes from the variant's VariantInfo
// (``pile_names``: Freecell's reserves are free cells), else from its kind.

import { t } from './i18n.js';
import { NAMES } from './names.js';
import { ANY_FOUNDATION, AUTO, DEAL, UNDO, parseMove, pileIndex, pileKind } from './notation.js';

/** Suits and ranks as faces show them: the table of names both clients share (names.js). */
const SYMBOLS = NAMES.suits;

/** "TH" -> "ten of hearts". */
export function cardName(card) {
  return t('card.name', t(`rank.${card[0]}`), t(`suit.${card[1]}`));
}

export function isRed(card) {
  return card[1] === 'D' || card[1] === 'H';
}

/** What the corner of a face shows: "10" for a ten, the language's letter for a face card
 * (J Q K in English, V D R in French), the letter or digit otherwise. */
export function rankText(card) {
  const letter = t(`glyph.${card[0]}`);
  return letter === `glyph.${card[0]}` ? NAMES.ranks[card[0]] ?? card[0] : letter;
}

export function suitSymbol(card) {
  return SYMBOLS[card[1]];
}

/** A card as its face shows it: "10♣". */
export function cardGlyphs(card) {
  return rankText(card) + suitSymbol(card);
}

/** "face down, 3 cards" (the words a stack of backs is read as). */
export function faceDownName(count) {
  return t('card.down', count);
}

/** The word the variant gives a pile's kind, from VariantInfo's ``pile_names`` (pile id ->
 * "free cell 1"): the name without its number ("free cell"), or null when the server sent none. */
function variantWord(kind, variant, id = null) {
  const names = variant?.pile_names;
  if (!names || typeof names !== 'object') return null;
  const name = names[id] ?? Object.entries(names).find(([pid]) => pileKind(pid) === kind)?.[1];
  return name ? name.replace(/ \d+$/, '') : null;
}

/** A kind of pile in words, in the page's language: "tableau", "free cell"; ``many`` for the
 * plural. A word the language's table does not know is shown as the server wrote it. */
export function kindName(kind, variant, many = false, id = null) {
  const prefix = many ? 'kinds' : 'kind';
  const own = variantWord(kind, variant, id);
  if (own) {
    const known = t(`${prefix}.${own}`);
    return known === `${prefix}.${own}` ? own : known;
  }
  return t(`${prefix}.${kind}`);
}

/** A pile's name in words: "tableau 4", "free cell 1", "foundation 2", "stock", "waste". */
export function pileName(id, variant) {
  if (id === ANY_FOUNDATION) return t('pile.anyFoundation');
  const index = pileIndex(id);
  const name = kindName(pileKind(id), variant, false, id);
  return index === null ? name : t('pile.numbered', name, index + 1);
}

/** A pile and its cards in words: "tableau 4: face down, 3 cards; ten of hearts". */
export function pileLabel(pile, variant) {
  const parts = [];
  if (pile.down) parts.push(faceDownName(pile.down));
  if (pile.up.length === 1) parts.push(cardName(pile.up[0]));
  else if (pile.up.length > 1) parts.push(t('pile.up', pile.up.length, cardName(pile.up[pile.up.length - 1])));
  return t('pile.label', pileName(pile.id, variant), parts.join('; '));
}

function movedCards(m, piles, glyphs) {
  const from = piles?.find((p) => p.id === m.src);
  const card = from && from.up.length >= m.count ? from.up[from.up.length - m.count] : null;
  if (!card) return t('move.cards', m.count);
  const name = glyphs ? cardGlyphs(card) : cardName(card);
  return m.count > 1 ? t('move.more', name, m.count - 1) : name;
}

/** A move in words for the live region, read against the board it was played on; ``glyphs``:
 * cards as their faces show them ("Q♥"), as a list of moves shows them. */
export function moveWords(move, piles, variant, glyphs = false) {
  if (move === DEAL) return t('move.dealt');
  if (move === AUTO) return t('move.auto');
  if (move === UNDO) return t('move.undo');
  const m = parseMove(move);
  if (!m) return move;
  return t('move.words', movedCards(m, piles, glyphs), pileName(m.src, variant), pileName(m.dst, variant));
}

/** A hint as advice, cards as their faces show them: "move 5♥ from tableau 7 to foundation 3". */
export function adviceWords(move, piles, variant) {
  if (move === DEAL) return t('hint.deal');
  if (move === AUTO) return t('hint.auto');
  const m = parseMove(move);
  if (!m) return move;
  return t('hint.advice', movedCards(m, piles, true), pileName(m.src, variant), pileName(m.dst, variant));
}
