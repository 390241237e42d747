// The notation, once: moves parsed and written, pile kinds, the states of a game. And no other
// module writes the move pattern or a state's name again (they import them from notation.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { ENDED, UNFINISHED, formatMove, parseMove, pileIndex, pileKind } from '../../../client/web/js/notation.js';

const JS = new URL('../../../client/web/js/', import.meta.url);

function modules(dir = JS) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory()
    ? modules(new URL(`${entry.name}/`, dir))
    : entry.name.endsWith('.js') ? [new URL(entry.name, dir)] : []));
}

test('moves are parsed and written back', () => {
  assert.deepEqual(parseMove('t2:3>t4'), { src: 't2', count: 3, dst: 't4' });
  assert.deepEqual(parseMove('w>f'), { src: 'w', count: 1, dst: 'f' });
  assert.equal(parseMove('deal'), null);
  assert.equal(parseMove('t2:>t4'), null);
  for (const move of ['t2:3>t4', 'w>f0', 'r3>t9', 't0>f']) {
    const m = parseMove(move);
    assert.equal(formatMove(m.src, m.count, m.dst), move);
  }
  assert.equal(pileKind('r3'), 'r');
  assert.equal(pileIndex('f7'), 7);
  assert.equal(pileIndex('s'), null);
  assert.deepEqual([...ENDED].sort(), ['resigned', 'timeout', 'won']);
  assert.deepEqual([...UNFINISHED].sort(), ['playing', 'stuck']);
});

test('no other module writes the move pattern or switches on a variant id', () => {
  const ids = ['osmosis', 'thumb_and_pouch', 'gypsy', 'freecell', 'westhaven'];
  for (const url of modules()) {
    const path = url.pathname;
    if (path.endsWith('/notation.js')) continue;
    const text = readFileSync(url, 'utf8');
    assert.ok(!text.includes(':(\\d+))?>'), `${path} writes the move pattern again`);
    // the rules texts are content kept by variant id; no code compares against one
    for (const id of ids) assert.ok(!new RegExp(`=== ?'${id}'|'${id}' ?===|case '${id}'`).test(text), `${path} switches on ${id}`);
    for (const state of ['playing', 'won', 'stuck', 'resigned', 'timeout']) {
      assert.ok(!new RegExp(`(===|!==) '${state}'|'${state}' (===|!==)`).test(text), `${path} compares a state by its name: import it from notation.js`);
    }
  }
});
