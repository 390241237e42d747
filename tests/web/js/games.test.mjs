// Home's "Your games": the unfinished (playing, stuck) first, newest first within each, once each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gamesToShow } from '../../../client/web/js/home.js';

const game = (id, state) => ({ id, state });

test('unfinished games come first, each game once', () => {
  const open = [game('a', 'playing'), game('d', 'playing')];
  const recent = [game('b', 'won'), game('a', 'playing'), game('c', 'stuck'), game('e', 'resigned')];
  assert.deepEqual(gamesToShow(open, recent).map((g) => g.id), ['a', 'd', 'c', 'b', 'e']);
  assert.deepEqual(gamesToShow([], []), []);
  assert.deepEqual(gamesToShow([], [game('x', 'timeout'), game('y', 'stuck')]).map((g) => g.id), ['y', 'x']);
});
