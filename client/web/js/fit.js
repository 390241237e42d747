// The size of the cards and the spread of the columns, from the room the board has: the widest
// row fits the width, every row fits the height (never a scroll to reach a card), and a column
// tightens its overlap as it grows, as Aisleriot does, down to the least that leaves every
// covered face-up card a strip a finger can hit (24 CSS px, WCAG 2.2's target size) with its
// corner readable. Pure: the numbers in, the numbers out (tests/web/js/fit.test.mjs).

import { GAP, GAP_UNITS, RIGHT_STEP, rightCapacity } from './layout.js';

export const MAX_CARD_W = 96;
export const MIN_CARD_W = 26;
/** A card's height for its width. */
export const CARD_RATIO = 1.4;
/** The least height of the visible strip of a covered face-up card, in CSS px. */
export const MIN_TARGET = 24;
/** Space between two piles of a row, in card widths. */
export const PILE_GAP = 0.12;
/** Columns are sized for at least this many face-up cards, so that the cards keep their size
 * through a usual game and shrink only when a column grows past it. */
export const DESIGN_UP = 12;

const NATURAL_DOWN = 0.1; // of a card's height: face-down cards close together
const NATURAL_UP = 0.27; // face-up ones spread enough to read their corner
const MIN_DOWN = 0.05;

/** The least step between two face-up cards of a column, for cards ``w`` wide. */
export function minUpStep(w) {
  return Math.max(MIN_TARGET, Math.ceil(0.3 * w));
}

function minDownStep(h) {
  return Math.max(3, Math.round(h * MIN_DOWN));
}

/** Whether a row holds columns (piles fanned down). */
const isColumns = (row, fan) => row.some((id) => id !== GAP && fan[id] === 'down');

function rowWidth(row, fan, w) {
  let units = 0;
  for (const id of row) {
    if (id === GAP) units += GAP_UNITS;
    else units += fan[id] === 'right' ? 1 + RIGHT_STEP * (rightCapacity(id) - 1) : 1;
  }
  return units * w + PILE_GAP * w * Math.max(row.length - 1, 0);
}

/** The height a column needs with the least steps (sized for ``DESIGN_UP`` cards at least). */
function tightColumn(pile, w, h, design) {
  const up = Math.max(pile ? pile.up.length : 0, design ? DESIGN_UP : 0);
  const down = pile ? pile.down : 0;
  return h + down * minDownStep(h) + Math.max(up - 1, 0) * minUpStep(w);
}

function rowHeight(row, fan, piles, w, h, design) {
  let most = h;
  for (const id of row) {
    if (id === GAP || fan[id] !== 'down') continue;
    most = Math.max(most, tightColumn(piles.get(id), w, h, design));
  }
  return most;
}

/**
 * The layout split where a narrow window needs it: a row of squared piles wider than every row
 * of columns is cut in two at its gap (Gypsy's stock and eight foundations on a phone), so that
 * the columns, not that row, set the card size. ``cut`` lists the index of each row that is the
 * first of two pieces (drawn keeping to its side, the second piece to the other).
 */
export function splitRows(layout) {
  const { rows, fan } = layout;
  const widest = Math.max(0, ...rows.filter((row) => isColumns(row, fan)).map((row) => rowWidth(row, fan, 1)));
  const out = [];
  const cut = [];
  for (const row of rows) {
    const at = row.indexOf(GAP);
    if (!isColumns(row, fan) && widest && rowWidth(row, fan, 1) > widest && at > 0) {
      cut.push(out.length);
      out.push(row.slice(0, at), row.slice(at + 1).filter((id) => id !== GAP));
    } else out.push(row);
  }
  return { rows: out, fan, cut };
}

/** Space between the columns and the piles set beside them, in card widths. */
export const SIDE_GAP = 0.4;
/** The space between two groups of piles set beside the columns, in card heights. */
export const SIDE_SPACE = 0.2;

/**
 * The card size and each column's steps for ``layout`` ({rows, fan}) holding ``piles`` (the
 * view's, {id, down, up}) in ``width`` x ``height`` CSS px, with ``rowExtra`` px above each row
 * (its labels and margin), cards no wider than ``largest``: the variant's rows, or those of
 * ``splitRows`` when they give larger cards, or (``besideRows``) the squared piles set beside the
 * columns when the window is too short for the columns below them.
 * Returns {rows, side, cut, across, tall, w, h, steps: {pileId: {down, up}}, fits}; ``side``
 * (null, or rows of pile ids) is drawn beside ``rows``; ``cut`` as ``splitRows`` gives it;
 * ``across`` the width of the widest of ``rows``, ``tall`` the height of the rows with columns
 * of ``DESIGN_UP`` face-up cards at the least step (or longer ones as they are), in px.
 */
export function fitBoard(layout, piles, width, height, rowExtra = 0, largest = MAX_CARD_W) {
  let best = fitRows(layout, piles, width, height, rowExtra, largest);
  const split = splitRows(layout);
  if (split.rows.length !== layout.rows.length) {
    const cut = fitRows(split, piles, width, height, rowExtra, largest);
    if (cut.w > best.w + 2 && cut.fits) best = cut;
  }
  const beside = besideRows(layout, piles, width, height, rowExtra, largest);
  if (beside?.fits && (!best.fits || beside.w >= best.w * 1.25)) best = beside;
  return best;
}

/** The largest card width from ``largest`` down that ``fitsAt(w, design)`` allows: sized for
 * the design length first; when the columns outgrow it, for the columns as they are; the least
 * size when nothing fits (the columns then overlap more than they should). */
function largestWidth(fitsAt, largest) {
  let w = largest;
  while (w > MIN_CARD_W && !fitsAt(w, true)) w--;
  if (!fitsAt(w, true)) {
    w = largest;
    while (w > MIN_CARD_W && !fitsAt(w, false)) w--;
  }
  return w;
}

/** Each column's steps when the rows of columns share what ``fixed`` px leave of ``height``. */
function stepsOf(rows, fan, byId, w, h, height, fixed, rowExtra) {
  const fanned = rows.filter((row) => isColumns(row, fan));
  const share = fanned.length ? (height - fixed) / fanned.length - rowExtra : h;
  const steps = {};
  for (const row of fanned) {
    for (const id of row) {
      if (id === GAP || fan[id] !== 'down') continue;
      steps[id] = columnSteps(byId.get(id), w, h, share);
    }
  }
  return steps;
}

function fitRows(layout, piles, width, height, rowExtra, largest) {
  const byId = new Map(piles.map((p) => [p.id, p]));
  const { rows, fan } = layout;
  const fitsAt = (w, design) => {
    const h = Math.round(w * CARD_RATIO);
    if (rows.some((row) => rowWidth(row, fan, w) > width)) return false;
    const total = rows.reduce((sum, row) => sum + rowExtra + rowHeight(row, fan, byId, w, h, design), 0);
    return total <= height;
  };
  const w = largestWidth(fitsAt, largest);
  const h = Math.round(w * CARD_RATIO);
  // the room the rows of columns share: what the other rows leave
  const fixed = rows.reduce((sum, row) => sum + rowExtra + (isColumns(row, fan) ? 0 : h), 0);
  const steps = stepsOf(rows, fan, byId, w, h, height, fixed, rowExtra);
  const across = Math.max(...rows.map((row) => rowWidth(row, fan, w)));
  const tall = rows.reduce((sum, row) => sum + rowExtra + rowHeight(row, fan, byId, w, h, true), 0);
  return { rows, side: null, cut: layout.cut ?? [], across, tall, w, h, steps, fits: fitsAt(w, false) };
}

/** The height of the lines beside the columns: a row of cards each, a space between groups. */
export function sideHeight(side, h, rowExtra) {
  return side.reduce((sum, line) => sum + rowExtra + (line.length ? h : Math.round(h * SIDE_SPACE)), 0);
}

/**
 * A short, wide window (a phone held sideways): the rows of columns take the whole height, and
 * the other rows' piles stand beside them, each group between gaps on lines of at most ``k``
 * piles, ``k`` chosen for the largest cards (Gypsy's stock, then its foundations four by four),
 * an empty line between two groups.
 * Null for a layout without both kinds of rows.
 */
export function besideRows(layout, piles, width, height, rowExtra = 0, largest = MAX_CARD_W) {
  const byId = new Map(piles.map((p) => [p.id, p]));
  const { rows, fan } = layout;
  const columns = rows.filter((row) => isColumns(row, fan));
  const groups = [];
  for (const row of rows.filter((r) => !isColumns(r, fan))) {
    let group = [];
    for (const id of [...row, GAP]) {
      if (id !== GAP) group.push(id);
      else if (group.length) { groups.push(group); group = []; }
    }
  }
  if (!columns.length || !groups.length) return null;
  let best = null;
  for (let k = Math.max(...groups.map((g) => g.length)); k >= 1; k--) {
    // each group in as few lines of at most k as it needs, as even as they go; an empty line
    // between two groups (drawn as a space: cells apart from foundations)
    const side = groups.flatMap((g, n) => {
      const lines = Math.ceil(g.length / k);
      const size = Math.ceil(g.length / lines);
      const cut = Array.from({ length: lines }, (_, i) => g.slice(i * size, i * size + size));
      return n ? [[], ...cut] : cut;
    });
    const fitsAt = (w, design) => {
      const h = Math.round(w * CARD_RATIO);
      const across = Math.max(...columns.map((row) => rowWidth(row, fan, w))) + SIDE_GAP * w +
        Math.max(...side.map((row) => rowWidth(row, fan, w)));
      if (across > width || sideHeight(side, h, rowExtra) > height) return false;
      return columns.reduce((sum, row) => sum + rowExtra + rowHeight(row, fan, byId, w, h, design), 0) <= height;
    };
    const w = largestWidth(fitsAt, largest);
    const fits = fitsAt(w, false);
    if (best && (best.fits && !fits || best.w >= w)) continue;
    const h = Math.round(w * CARD_RATIO);
    const across = Math.max(...columns.map((row) => rowWidth(row, fan, w)));
    const tall = Math.max(sideHeight(side, h, rowExtra),
      columns.reduce((sum, row) => sum + rowExtra + rowHeight(row, fan, byId, w, h, true), 0));
    best = { rows: columns, side, cut: [], across, tall, w, h, steps: stepsOf(columns, fan, byId, w, h, height, 0, rowExtra), fits };
  }
  return best;
}

/** The steps of one column in ``room`` px of height: natural when it fits, else face-down
 * cards closed up first, then face-up ones, never below the least step. */
export function columnSteps(pile, w, h, room) {
  const down = pile?.down ?? 0;
  const ups = Math.max((pile?.up.length ?? 0) - 1, 0);
  let downStep = h * NATURAL_DOWN;
  let upStep = Math.max(h * NATURAL_UP, minUpStep(w));
  if (h + down * downStep + ups * upStep <= room) return { down: downStep, up: upStep };
  downStep = Math.max(minDownStep(h), Math.min(downStep, ups ? downStep : (room - h) / Math.max(down, 1)));
  if (ups) upStep = Math.max(Math.min(upStep, (room - h - down * downStep) / ups), minUpStep(w));
  if (h + down * downStep + ups * upStep > room && down) {
    downStep = Math.max(minDownStep(h), (room - h - ups * upStep) / down);
  }
  return { down: downStep, up: upStep };
}
