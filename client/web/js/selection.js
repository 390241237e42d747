// From "picked a card, then a pile" to the move to send, reading only the server's legal list.
// The client decides nothing: a move the list does not hold is still sent as the player asked,
// so that the server says why it is refused.

import { PLAYING, formatMove, parseMove, pileKind } from './notation.js';

export { formatMove, parseMove };

function parsed(legal) {
  return (legal ?? []).map(parseMove).filter(Boolean);
}

/** Group sizes the legal list allows from ``src``, smallest first. */
export function countsFrom(legal, src) {
  return [...new Set(parsed(legal).filter((m) => m.src === src).map((m) => m.count))].sort((a, b) => a - b);
}

/** Piles a legal move from ``src`` (of ``count`` cards when given) goes to. */
export function destinations(legal, src, count = null) {
  const out = new Set();
  for (const m of parsed(legal)) if (m.src === src && (count === null || m.count === count)) out.add(m.dst);
  return out;
}

/** Whether any legal move starts at ``src`` (of ``count`` cards when given). */
export function isSource(legal, src, count = null) {
  return parsed(legal).some((m) => m.src === src && (count === null || m.count === count));
}

/**
 * The move for source ``src`` and destination ``dst``. Without a chosen count the largest legal
 * group to ``dst`` wins (moving a run onto a pile moves all of it that may go); with none legal,
 * one card.
 */
export function chooseMove(legal, src, dst, count = null) {
  let n = count;
  if (n === null) {
    const sizes = parsed(legal).filter((m) => m.src === src && m.dst === dst).map((m) => m.count);
    n = sizes.length ? Math.max(...sizes) : 1;
  }
  return formatMove(src, n, dst);
}

/** The next group size for + (step 1) or - (step -1): legal sizes first, else 1..upCards. */
export function stepCount(legal, src, current, step, upCards) {
  let sizes = countsFrom(legal, src);
  if (!sizes.length) sizes = Array.from({ length: Math.max(upCards, 1) }, (_, i) => i + 1);
  if (current === null) return step < 0 ? sizes[sizes.length - 1] : sizes[0];
  if (step > 0) return sizes.find((s) => s > current) ?? current;
  const smaller = sizes.filter((s) => s < current);
  return smaller.length ? smaller[smaller.length - 1] : current;
}

/** The foundation a send-home of ``src``'s top card goes to: the first one the list allows. */
export function homeFor(legal, src) {
  const found = parsed(legal).filter((m) => m.src === src && m.count === 1 && pileKind(m.dst) === 'f');
  found.sort((a, b) => Number(a.dst.slice(1)) - Number(b.dst.slice(1)));
  return found.length ? found[0].dst : null;
}

/**
 * The board as it will look once ``move`` is played, drawn before the server answers: cards
 * moved from pile to pile, nothing else (no card turned, no automatic play: the server's view
 * brings those). Null when the move cannot be drawn that way (deal, auto, an unknown pile).
 */
export function optimisticPiles(piles, move, legal) {
  const m = parseMove(move);
  if (!m) return null;
  const dstId = m.dst === 'f' ? homeFor(legal, m.src) : m.dst;
  const src = piles.find((p) => p.id === m.src);
  const dst = piles.find((p) => p.id === dstId);
  if (!src || !dst || src === dst || src.up.length < m.count) return null;
  const moving = src.up.slice(src.up.length - m.count);
  return piles.map((p) => {
    if (p === src) return { ...p, up: p.up.slice(0, p.up.length - m.count) };
    if (p === dst) return { ...p, up: [...p.up, ...moving] };
    return p;
  });
}

const RANK_ORDER = 'A23456789TJQK';

/**
 * Whether ``view`` can be finished by sending every card home: nothing face down, nothing left
 * in the stock or the waste, and every other pile's cards going down in rank from its bottom to
 * its top, with a card able to go to a foundation now. Then the next card each suit's
 * foundation needs always lies on top of its pile (a card over it would be lower still, so
 * already home), and ``auto`` puts every card home: an autocomplete tells nothing the board does
 * not show, and cannot spoil a game (no card moved home was needed elsewhere).
 */
export function finishable(view) {
  if (view.state !== PLAYING || !view.legal?.length) return false;
  let off = 0;
  for (const pile of view.piles) {
    if (pile.down) return false;
    const kind = pileKind(pile.id);
    if (kind === 'f') continue;
    if ((kind === 's' || kind === 'w') && pile.up.length) return false;
    off += pile.up.length;
    for (let i = 1; i < pile.up.length; i++) {
      if (RANK_ORDER.indexOf(pile.up[i][0]) >= RANK_ORDER.indexOf(pile.up[i - 1][0])) return false;
    }
  }
  return off > 0 && parsed(view.legal).some((m) => pileKind(m.dst) === 'f');
}
