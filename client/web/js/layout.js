// Where each pile sits, from the variant's layout in welcome (rows of pile ids, "" a gap, and how
// each pile fans), and the keys that pick piles: the terminal client's keys.

import { NAMES } from './names.js';
import { STOCK, pileIndex, pileKind } from './notation.js';

export const GAP = '';

/** How a pile's key is written above it ("4", "q", "x", "F1", "spc"): the table of names both
 * clients share (names.js). */
export function keyLabel(pileId) {
  const labels = NAMES.keys[pileKind(pileId)];
  if (!labels) return null;
  return labels[pileIndex(pileId) ?? 0] ?? null;
}

/** The key that picks a pile, as KeyboardEvent.key names it ("1", "q", "x", "F1", " "). */
export function keyOf(pileId) {
  const label = keyLabel(pileId);
  return label === 'spc' ? ' ' : label;
}

/** The pile among ``pileIds`` that ``key`` picks, or null. */
export function pileForKey(key, pileIds) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  return pileIds.find((id) => keyOf(id) === k) ?? null;
}

/**
 * The layout to draw for a view: the variant's rows kept to the piles the view lists, every
 * pile the view lists placed (one the rows forget goes in a last row), and a fan for each.
 */
export function boardLayout(layout, pileIds) {
  const present = new Set(pileIds);
  const placed = new Set();
  const rows = [];
  for (const row of layout?.rows ?? []) {
    const kept = row.filter((id) => id === GAP || present.has(id));
    kept.forEach((id) => placed.add(id));
    while (kept.length && kept[kept.length - 1] === GAP) kept.pop();
    while (kept.length && kept[0] === GAP) kept.shift();
    if (kept.length) rows.push(kept);
  }
  const rest = pileIds.filter((id) => !placed.has(id));
  if (rest.length) rows.push(rest);
  const fan = {};
  for (const id of pileIds) fan[id] = layout?.fan?.[id] ?? (pileKind(id) === 't' ? 'down' : 'stack');
  return { rows, fan };
}

/**
 * How many card widths a row needs: a pile is one, a gap half, a pile fanned sideways one plus
 * 0.3 (room for a "10" in its corner) for each further card it can hold (13 on a foundation, 4 elsewhere). The widest row
 * sets the card size.
 */
export const GAP_UNITS = 0.5;
export const RIGHT_STEP = 0.3;

export function rightCapacity(pileId) {
  return pileKind(pileId) === 'f' ? 13 : 4;
}

export function pileUnits(pileId, fan) {
  if (pileId === GAP) return GAP_UNITS;
  return fan[pileId] === 'right' ? 1 + RIGHT_STEP * (rightCapacity(pileId) - 1) : 1;
}

export function rowUnits(row, fan) {
  return row.reduce((sum, id) => sum + pileUnits(id, fan), 0);
}

/**
 * A row of squared piles as a left-handed player has it: its groups (piles between gaps) in the
 * other order, the group that holds the stock mirrored so that the stock keeps to the outer
 * edge, every other group in its own order (free cell 1 still left of free cell 2).
 */
export function mirrorRow(row) {
  const groups = [[]];
  for (const id of row) {
    if (id === GAP) groups.push([]);
    else groups[groups.length - 1].push(id);
  }
  const out = [];
  for (const group of groups.filter((g) => g.length).reverse()) {
    if (out.length) out.push(GAP);
    out.push(...(group.includes(STOCK) ? [...group].reverse() : group));
  }
  return out;
}
