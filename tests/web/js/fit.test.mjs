// The board fits the room it has: card size from width and height, columns that tighten as they
// grow, and never a covered card's strip below the size of a finger (24 px).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_CARD_W, MIN_TARGET, columnSteps, fitBoard, minUpStep, sideHeight } from '../../../client/web/js/fit.js';
import { mirrorRow } from '../../../client/web/js/layout.js';

const FREECELL = {
  rows: [['r0', 'r1', 'r2', 'r3', '', 'f0', 'f1', 'f2', 'f3'], ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']],
  fan: Object.fromEntries([...'01234567'].map((n) => [`t${n}`, 'down'])),
};
const piles = (up, down = 0) => [
  ...['r0', 'r1', 'r2', 'r3', 'f0', 'f1', 'f2', 'f3'].map((id) => ({ id, down: 0, up: [] })),
  ...[...'01234567'].map((n) => ({ id: `t${n}`, down, up: Array(up).fill('KS') })),
];

/** The height the fitted board takes: its rows, or the taller of its rows and the piles beside. */
function height(fit, layout, ps, extra) {
  const side = fit.side ? sideHeight(fit.side, fit.h, extra) : 0;
  return Math.max(side, fit.rows.reduce((sum, row) => {
    let most = fit.h;
    for (const id of row) {
      const p = ps.find((q) => q.id === id);
      const s = fit.steps[id];
      if (p && s) most = Math.max(most, fit.h + p.down * s.down + Math.max(p.up.length - 1, 0) * s.up);
    }
    return sum + extra + most;
  }, 0));
}

test('cards are as large as width and height allow, never larger than the cap', () => {
  const wide = fitBoard(FREECELL, piles(7), 1260, 650, 18);
  assert.equal(wide.w, MAX_CARD_W);
  const phone = fitBoard(FREECELL, piles(7), 380, 650, 6);
  assert.ok(phone.w < 45 && phone.w >= 30, `phone card ${phone.w}`);
  assert.ok(phone.w * 8 + phone.w * 0.12 * 7 <= 380);
});

test('long columns tighten, keep 24 px strips, and stay within the height', () => {
  for (const [width, room] of [[1260, 620], [1350, 590], [380, 660]]) {
    for (const up of [1, 7, 13, 19, 25]) {
      const ps = piles(up, 2);
      const fit = fitBoard(FREECELL, ps, width, room, 18);
      for (const id of Object.keys(fit.steps)) assert.ok(fit.steps[id].up >= MIN_TARGET, `${id} at ${width}x${room}, ${up} cards`);
      if (fit.fits) assert.ok(height(fit, FREECELL, ps, 18) <= room + 1, `${up} cards at ${width}x${room}`);
    }
  }
  // more cards, smaller (or equal) steps
  const short = fitBoard(FREECELL, piles(8), 1260, 620, 18);
  const long = fitBoard(FREECELL, piles(22), 1260, 620, 18);
  assert.ok(long.steps.t0.up <= short.steps.t0.up);
  assert.ok(long.w <= short.w);
});

test('a column steps naturally when there is room, and never below the least step', () => {
  const s = columnSteps({ down: 0, up: Array(5).fill('KS') }, 96, 134, 1000);
  assert.ok(Math.abs(s.up - 134 * 0.27) < 1e-9);
  assert.equal(columnSteps({ down: 0, up: Array(5).fill('KS') }, 40, 56, 1000).up, MIN_TARGET); // small cards: a finger's strip
  const tight = columnSteps({ down: 3, up: Array(20).fill('KS') }, 60, 84, 300);
  assert.equal(tight.up, minUpStep(60));
  assert.ok(minUpStep(30) >= MIN_TARGET);
});

test('a row of squared piles wider than the columns is cut at its gap where that gives larger cards', () => {
  const gypsy = {
    rows: [['s', '', 'f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'], ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']],
    fan: Object.fromEntries([...'01234567'].map((n) => [`t${n}`, 'down'])),
  };
  const ps = [{ id: 's', down: 0, up: [] }, ...[...'01234567'].flatMap((n) => [{ id: `f${n}`, down: 0, up: [] }, { id: `t${n}`, down: 2, up: ['KS'] }])];
  const phone = fitBoard(gypsy, ps, 378, 660, 6);
  assert.deepEqual(phone.rows.map((r) => r.length), [1, 8, 8]);
  assert.deepEqual(phone.cut, [0], 'the first row is the first of two pieces');
  assert.ok(Math.abs(phone.across - (8 + 7 * 0.12) * phone.w) < 1e-9, 'as wide as the columns');
  const desktop = fitBoard(gypsy, ps, 1250, 640, 18);
  assert.equal(desktop.rows.length, 2); // room enough: the variant's own rows
  assert.deepEqual(desktop.cut, []);
});

test('a short, wide window sets the squared piles beside the columns when the columns need the height', () => {
  const gypsy = {
    rows: [['s', '', 'f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'], ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']],
    fan: Object.fromEntries([...'01234567'].map((n) => [`t${n}`, 'down'])),
  };
  // Gypsy after its ten deals: a column of 2 face-down and 14 face-up cards, in a phone held sideways
  const ps = [{ id: 's', down: 0, up: [] }, ...[...'01234567'].flatMap((n) => [
    { id: `f${n}`, down: 0, up: [] }, { id: `t${n}`, down: 2, up: Array(n === '0' ? 14 : 11).fill('KS') }])];
  const below = fitBoard({ ...gypsy, rows: gypsy.rows }, ps, 640, 366, 6);
  assert.ok(below.fits, 'the board fits');
  assert.ok(below.side, 'the squared piles stand beside the columns');
  assert.deepEqual(below.rows, [gypsy.rows[1]]);
  assert.deepEqual(below.side.flat(), ['s', 'f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
  assert.deepEqual(below.side[1], [], 'a space between the stock and the foundations');
  const lengths = below.side.slice(2).map((line) => line.length);
  assert.ok(Math.max(...lengths) - Math.min(...lengths) <= 1, `foundations in even lines: ${lengths}`);
  assert.ok(height(below, gypsy, ps, 6) <= 366);
  for (const id of Object.keys(below.steps)) assert.ok(below.steps[id].up >= MIN_TARGET);
  assert.ok(below.w >= 26 && below.w * 1.4 >= MIN_TARGET);
  // a tall window keeps the variant's rows
  assert.equal(fitBoard(gypsy, ps, 378, 660, 6).side, null);
});

test('left-handed, the groups of a row change sides, the stock keeps to the outer edge', () => {
  assert.deepEqual(mirrorRow(['r0', 'r1', 'r2', 'r3', '', 'f0', 'f1', 'f2', 'f3']), ['f0', 'f1', 'f2', 'f3', '', 'r0', 'r1', 'r2', 'r3']);
  assert.deepEqual(mirrorRow(['s', 'w', '', 'f0', 'f1', 'f2', 'f3']), ['f0', 'f1', 'f2', 'f3', '', 'w', 's']);
  assert.deepEqual(mirrorRow(['s', '', 'f0', 'f1']), ['f0', 'f1', '', 's']);
  assert.deepEqual(mirrorRow(['s', 'w']), ['w', 's']);
  assert.deepEqual(mirrorRow(['f0', 'f1']), ['f0', 'f1'], 'a group without the stock keeps its order');
});
