// Cards and piles in words and symbols: what a screen reader says and what a card face shows.

const RANKS = {
  A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven',
  8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king',
};
const SUITS = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const SYMBOLS = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };

/** "TH" -> "ten of hearts". */
export function cardName(card) {
  return `${RANKS[card[0]]} of ${SUITS[card[1]]}`;
}

export function isRed(card) {
  return card[1] === 'D' || card[1] === 'H';
}

/** What the corner of a face shows: "10" for a ten, the letter or digit otherwise. */
export function rankText(card) {
  return card[0] === 'T' ? '10' : card[0];
}

export function suitSymbol(card) {
  return SYMBOLS[card[1]];
}

/** "face down, 3 cards" (the words a stack of backs is read as). */
export function faceDownName(count) {
  return `face down, ${count} ${count === 1 ? 'card' : 'cards'}`;
}

/**
 * A pile's name in words: "tableau 4", "free cell 1", "foundation 2", "stock", "waste".
 * Freecell calls its reserves free cells; the other games call them reserves.
 */
export function pileName(id, variant) {
  const n = Number(id.slice(1)) + 1;
  switch (id[0]) {
    case 's': return 'stock';
    case 'w': return 'waste';
    case 'f': return `foundation ${n}`;
    case 't': return `tableau ${n}`;
    case 'r': return variant === 'freecell' ? `free cell ${n}` : `reserve ${n}`;
    default: return id;
  }
}

/** A pile and its cards in words: "tableau 4: face down, 3 cards; ten of hearts". */
export function pileLabel(pile, variant) {
  const parts = [];
  if (pile.down) parts.push(faceDownName(pile.down));
  if (pile.up.length === 1) parts.push(cardName(pile.up[0]));
  else if (pile.up.length > 1) parts.push(`${pile.up.length} face up, top ${cardName(pile.up[pile.up.length - 1])}`);
  return `${pileName(pile.id, variant)}: ${parts.length ? parts.join('; ') : 'empty'}`;
}

/** A move in words for the live region, read against the board it was played on. */
export function moveWords(move, piles, variant) {
  if (move === 'deal') return 'dealt from the stock';
  if (move === 'auto') return 'sent every card it could to the foundations';
  if (move === 'undo') return 'took back the last move';
  const m = /^([a-z]\d?)(?::(\d+))?>([a-z]\d?)$/.exec(move);
  if (!m) return move;
  const [, src, count, dst] = m;
  const from = piles?.find((p) => p.id === src);
  const n = Number(count || 1);
  const card = from && from.up.length >= n ? from.up[from.up.length - n] : null;
  const what = card ? cardName(card) + (n > 1 ? ` and ${n - 1} more` : '') : `${n} ${n === 1 ? 'card' : 'cards'}`;
  const where = dst === 'f' ? 'a foundation' : pileName(dst, variant);
  return `${what} from ${pileName(src, variant)} to ${where}`;
}
