// Moves chosen from the server's legal list, and a move drawn before the server answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseMove, countsFrom, destinations, homeFor, isSource, optimisticPiles, parseMove, stepCount } from '../../../client/web/js/selection.js';

const LEGAL = ['t0>r0', 't0>t3', 't2:3>t4', 't2:2>t5', 't2>t6', 't2:3>t7', 'w>f2', 'w>f0', 'deal'];

test('parses moves and ignores words', () => {
  assert.deepEqual(parseMove('t2:3>t4'), { src: 't2', count: 3, dst: 't4' });
  assert.deepEqual(parseMove('w>f'), { src: 'w', count: 1, dst: 'f' });
  assert.equal(parseMove('deal'), null);
  assert.equal(parseMove('t2:>t4'), null);
});

test('destinations and group sizes come from the list only', () => {
  assert.deepEqual([...destinations(LEGAL, 't2')].sort(), ['t4', 't5', 't6', 't7']);
  assert.deepEqual([...destinations(LEGAL, 't2', 3)].sort(), ['t4', 't7']);
  assert.deepEqual([...destinations(LEGAL, 't9')], []);
  assert.deepEqual(countsFrom(LEGAL, 't2'), [1, 2, 3]);
  assert.ok(isSource(LEGAL, 't0'));
  assert.ok(!isSource(LEGAL, 't0', 2));
});

test('without a chosen count the largest legal group goes; none legal: one card, as asked', () => {
  assert.equal(chooseMove(LEGAL, 't2', 't4'), 't2:3>t4');
  assert.equal(chooseMove(LEGAL, 't2', 't5'), 't2:2>t5');
  assert.equal(chooseMove(LEGAL, 't2', 't4', 1), 't2>t4');
  assert.equal(chooseMove(LEGAL, 't1', 't4'), 't1>t4');
});

test('+ and - step through legal sizes', () => {
  assert.equal(stepCount(LEGAL, 't2', null, -1, 5), 3);
  assert.equal(stepCount(LEGAL, 't2', 3, -1, 5), 2);
  assert.equal(stepCount(LEGAL, 't2', 1, -1, 5), 1);
  assert.equal(stepCount(LEGAL, 't2', 1, 1, 5), 2);
  assert.equal(stepCount(LEGAL, 't2', 3, 1, 5), 3);
  assert.equal(stepCount([], 't1', null, 1, 3), 1);
  assert.equal(stepCount([], 't1', 2, 1, 3), 3);
});

test('send home goes to the first foundation the list allows', () => {
  assert.equal(homeFor(LEGAL, 'w'), 'f0');
  assert.equal(homeFor(LEGAL, 't0'), null);
});

test('a move is drawn by moving cards, and only then', () => {
  const piles = [
    { id: 'w', down: 0, up: ['AS'] },
    { id: 'f0', down: 0, up: [] },
    { id: 't2', down: 2, up: ['9H', '8S', '7D'] },
    { id: 't4', down: 0, up: ['TC'] },
  ];
  const after = optimisticPiles(piles, 't2:3>t4', LEGAL);
  assert.deepEqual(after.find((p) => p.id === 't2'), { id: 't2', down: 2, up: [] });
  assert.deepEqual(after.find((p) => p.id === 't4').up, ['TC', '9H', '8S', '7D']);
  assert.deepEqual(piles[2].up, ['9H', '8S', '7D'], 'the view itself is left alone');
  assert.deepEqual(optimisticPiles(piles, 'w>f', LEGAL).find((p) => p.id === 'f0').up, ['AS']);
  assert.equal(optimisticPiles(piles, 'deal', LEGAL), null);
  assert.equal(optimisticPiles(piles, 't4:2>t2', LEGAL), null);
  assert.equal(optimisticPiles(piles, 't4>t9', LEGAL), null);
});

test('a game is finished by sending every card home only when nothing can go wrong', async () => {
  const { finishable } = await import('../../../client/web/js/selection.js');
  const pile = (id, down, ...up) => ({ id, down, up });
  const view = (piles, legal = ['t0>f0']) => ({ state: 'playing', piles, legal });
  const going = [pile('t0', 0, 'KS', 'QH', '2C'), pile('t1', 0, 'AC'), pile('f0', 0), pile('s', 0)];
  assert.equal(finishable(view(going)), true);
  assert.equal(finishable(view(going, ['t0>t1'])), false); // no card can go home now
  assert.equal(finishable({ ...view(going), state: 'won' }), false);
  assert.equal(finishable(view([pile('t0', 1, '2C'), pile('f0', 0)])), false); // a card face down
  assert.equal(finishable(view([pile('t0', 0, '2C', '3C'), pile('f0', 0)])), false); // 3♣ over 2♣
  assert.equal(finishable(view([pile('t0', 0, '2C'), pile('s', 0, '5H'), pile('f0', 0)])), false); // stock
  assert.equal(finishable(view([pile('t0', 0), pile('f0', 0, 'AC')])), false); // nothing left
});
