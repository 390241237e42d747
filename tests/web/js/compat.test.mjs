// What compat.js changes for today's server (protocol 1); it goes with protocol 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dialect } from '../../../client/web/js/dialect.js';
import '../../../client/web/js/compat.js';

test('protocol 1: hello says 1, seed becomes deal.seed, no games list', () => {
  assert.equal(dialect.protocol, 1);
  assert.equal(dialect.has.games, false);
  assert.deepEqual(dialect.gameView({ id: 'g', seed: 617, ply: 0 }), { id: 'g', deal: { seed: 617 }, ply: 0 });
  const v2 = { id: 'g', deal: { commitment: 'ab' } };
  assert.equal(dialect.gameView(v2), v2);
});

test('layouts derived from pile ids as client/layout.py derives them', () => {
  const freecell = dialect.layout({ id: 'freecell' }, ['r0', 'r1', 'r2', 'r3', 'f0', 'f1', 'f2', 'f3', 't0', 't1']);
  assert.deepEqual(freecell.rows, [['r0', 'r1', 'r2', 'r3', '', 'f0', 'f1', 'f2', 'f3'], ['t0', 't1']]);
  assert.equal(freecell.fan.r0, 'stack');
  assert.equal(freecell.fan.t1, 'down');
  const osmosis = dialect.layout({ id: 'osmosis' }, ['s', 'w', 'r0', 'r1', 'f0', 'f1']);
  assert.deepEqual(osmosis.rows, [['s', 'w'], ['r0', 'f0'], ['r1', 'f1']]);
  assert.equal(osmosis.fan.f1, 'right');
  assert.equal(osmosis.fan.s, 'stack');
  const declared = { rows: [['t0']], fan: { t0: 'down' } };
  assert.equal(dialect.layout({ id: 'freecell', layout: declared }, ['t0']), declared, 'a declared layout wins');
});

test('practice is the daily seed as a numbered game; a race game from the RoomView', () => {
  assert.deepEqual(dialect.practice('freecell', { deal: { seed: 9 }, options: { autoplay: true } }),
    { type: 'start_game', variant: 'freecell', seed: 9, options: { autoplay: true } });
  assert.deepEqual(dialect.practice('freecell', { deal: { commitment: 'ab' } }), { type: 'daily', variant: 'freecell', practice: true });
  assert.equal(dialect.roomGame({ players: [{ id: 1, game: 'g1' }, { id: 2, game: 'g2' }] }, 2), 'g2');
  assert.equal(dialect.roomGame({ players: [{ id: 1 }] }, 1), null);
});
