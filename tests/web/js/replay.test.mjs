// A replay's boards: the first whole, each next one the one before with its step's changed piles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayBoards, stepFrom } from '../../../client/web/js/replay.js';

const pile = (id, down, ...up) => ({ id, down, up });

test('each board is the one before with the piles its step changed', () => {
  const reply = {
    actions: ['t0>f0', 'undo'],
    boards: [
      { piles: [pile('t0', 1, 'AS'), pile('f0', 0)] },
      { piles: [pile('f0', 0, 'AS'), pile('t0', 0, '5H')] },
      { piles: [pile('t0', 0, '5H', 'AS'), pile('f0', 0)] },
    ],
  };
  const boards = replayBoards(reply);
  assert.equal(boards.length, 3);
  assert.deepEqual(boards[1], [pile('t0', 0, '5H'), pile('f0', 0, 'AS')]); // the first's order
  assert.deepEqual(boards[2], [pile('t0', 0, '5H', 'AS'), pile('f0', 0)]);
  assert.deepEqual(boards[0], reply.boards[0].piles); // the first as sent, unchanged
});

test('an address asks for a step within the replay', () => {
  assert.equal(stepFrom('4', 10), 4);
  assert.equal(stepFrom('40', 10), 10);
  assert.equal(stepFrom('-3', 10), 0);
  assert.equal(stepFrom(null, 10), 0);
  assert.equal(stepFrom('x', 10), 0);
});
