// Cards and piles in words, layouts and keys, and the deal commitment check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cardName, faceDownName, moveWords, pileLabel, pileName, rankText } from '../../../client/web/js/cards.js';
import { boardLayout, keyOf, pileForKey, rowUnits } from '../../../client/web/js/layout.js';
import { checkDeal, commitmentOf, dealWords, verifyCommand } from '../../../client/web/js/fairplay.js';
import { sha256 } from '../../../client/web/js/sha256.js';
import { dialect } from '../../../client/web/js/dialect.js';

test('cards and piles are named in words', () => {
  assert.equal(cardName('TH'), 'ten of hearts');
  assert.equal(cardName('AS'), 'ace of spades');
  assert.equal(cardName('QC'), 'queen of clubs');
  assert.equal(rankText('TD'), '10');
  assert.equal(faceDownName(3), 'face down, 3 cards');
  assert.equal(faceDownName(1), 'face down, 1 card');
  // a pile's name comes from VariantInfo's pile_names (Freecell's reserves are free cells)
  const freecell = { id: 'freecell', pile_names: { r0: 'free cell 1', r1: 'free cell 2', t0: 'tableau 1' } };
  assert.equal(pileName('r0', freecell), 'free cell 1');
  assert.equal(pileName('r3', freecell), 'free cell 4');
  assert.equal(pileName('r0', { id: 'osmosis', pile_names: { r0: 'reserve 1' } }), 'reserve 1');
  assert.equal(pileName('r0'), 'reserve 1');
  assert.equal(pileName('t9'), 'tableau 10');
  assert.equal(pileLabel({ id: 't3', down: 3, up: ['TH'] }), 'tableau 4: face down, 3 cards; ten of hearts');
  assert.equal(pileLabel({ id: 'f0', down: 0, up: [] }), 'foundation 1: empty');
  assert.equal(pileLabel({ id: 't0', down: 0, up: ['KS', 'QH'] }), 'tableau 1: 2 face up, top queen of hearts');
  const piles = [{ id: 't3', down: 0, up: ['9H', '8S'] }];
  assert.equal(moveWords('t3:2>t5', piles), 'nine of hearts and 1 more from tableau 4 to tableau 6');
  assert.equal(moveWords('t3>f', piles), 'eight of spades from tableau 4 to a foundation');
  assert.equal(moveWords('deal', piles), 'dealt from the stock');
});

test('the terminal client\'s keys pick piles', () => {
  assert.deepEqual(['t0', 't9', 'r0', 'r3', 'f0', 'f7', 'w', 's'].map(keyOf), ['1', '0', 'q', 'r', 'F1', 'F8', 'x', ' ']);
  const ids = ['r0', 'r1', 'f0', 't0', 't1', 'w', 's'];
  assert.equal(pileForKey('2', ids), 't1');
  assert.equal(pileForKey('W', ids), 'r1');
  assert.equal(pileForKey('F1', ids), 'f0');
  assert.equal(pileForKey('x', ids), 'w');
  assert.equal(pileForKey('9', ids), null);
});

test('a layout keeps the rows the variant declares, to the piles the view has', () => {
  const layout = { rows: [['s', 'w', '', 'f0', 'f1'], ['t0', 't1']], fan: { s: 'stack', w: 'stack', f0: 'stack', f1: 'stack', t0: 'down', t1: 'down' } };
  const drawn = boardLayout(layout, ['s', 'f0', 'f1', 't0', 't1', 'r0']);
  assert.deepEqual(drawn.rows, [['s', '', 'f0', 'f1'], ['t0', 't1'], ['r0']]);
  assert.equal(drawn.fan.r0, 'stack');
  assert.equal(rowUnits(drawn.rows[0], drawn.fan), 3.5);
  assert.equal(rowUnits(['r0', 'f0'], { r0: 'right', f0: 'right' }), 1 + 3 * 0.3 + 1 + 12 * 0.3); // 0.3 a card: room for a "10"
  const fallback = boardLayout(null, ['t0', 's']);
  assert.deepEqual(fallback.rows, [['t0', 's']]);
  assert.deepEqual(fallback.fan, { t0: 'down', s: 'stack' });
});

test('protocol 2 reads the layout from VariantInfo and asks for practice', () => {
  assert.equal(dialect.protocol, 2);
  assert.equal(dialect.has.games, true);
  const layout = { rows: [['t0']], fan: { t0: 'down' } };
  assert.equal(dialect.layout({ id: 'x', layout }, ['t0']), layout);
  const view = { deal: { seed: 5 } };
  assert.deepEqual(dialect.practice('gypsy', view), { type: 'daily', variant: 'gypsy', practice: true });
});

test('SHA-256 as node computes it, and the commitment vectors of docs/rules.md', async () => {
  for (const text of ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'ten of \u2665'.repeat(40)]) {
    assert.equal(sha256(text), createHash('sha256').update(text, 'utf8').digest('hex'));
  }
  for (const subtle of [globalThis.crypto.subtle, null]) { // WebCrypto, and the script outside a secure context
    const by = subtle ? 'WebCrypto' : 'script';
    const zero = await commitmentOf('freecell', '0'.repeat(64), subtle);
    assert.ok(zero.digest.startsWith('48281e31e52d7658'));
    assert.equal(zero.by, by);
    const key = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
    const commitment = (await commitmentOf('gypsy', key, subtle)).digest;
    assert.ok(commitment.startsWith('142eba26df0471a2'));
    assert.ok((await checkDeal('gypsy', { commitment, key }, subtle)).matches);
    assert.ok((await checkDeal('gypsy', { commitment, key: key.toUpperCase() }, subtle)).matches);
    assert.ok(!(await checkDeal('freecell', { commitment, key }, subtle)).matches);
    assert.ok(!(await checkDeal('gypsy', { commitment }, subtle)).matches);
  }
  assert.equal(dealWords({ seed: 617 }), '#617');
  const commitment = 'ab'.repeat(32);
  assert.equal(dealWords({ commitment }), `keyed ${commitment.slice(0, 8)}\u2026`);
  assert.equal(dealWords({ commitment, key: '00'.repeat(32) }), `keyed ${commitment.slice(0, 8)}\u2026`);
});

test('the verify command: the two digests, and the options that differ from the defaults', () => {
  const deal = { commitment: 'AB'.repeat(32), key: '0'.repeat(64) };
  assert.equal(verifyCommand('freecell', deal), `patience-club verify freecell ${'ab'.repeat(32)} ${'0'.repeat(64)}`);
  assert.equal(
    verifyCommand('thumb_and_pouch', deal, { deal_three: true, autoplay: true }, { deal_three: false, autoplay: true }),
    `patience-club verify thumb_and_pouch ${'ab'.repeat(32)} ${'0'.repeat(64)} --option deal_three=true`);
  assert.equal(verifyCommand('freecell', { commitment: deal.commitment }), null);
  assert.equal(verifyCommand('freecell', { commitment: deal.commitment, key: '0; rm -rf ~' }), null);
  assert.equal(verifyCommand('freecell', deal, { 'x; ls': true }), `patience-club verify freecell ${'ab'.repeat(32)} ${'0'.repeat(64)}`);
});
