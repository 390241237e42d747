// One table of names drives both clients' wording: the browser is held to the golden examples of
// tests/names_golden.json, which the terminal client's test (tests/client/test_names_golden.py)
// reads too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { adviceWords, cardGlyphs } from '../../../client/web/js/cards.js';
import { setLanguage } from '../../../client/web/js/i18n.js';
import { keyLabel } from '../../../client/web/js/layout.js';
import { refusalWords } from '../../../client/web/js/refusals.js';

const golden = JSON.parse(readFileSync(new URL('../../names_golden.json', import.meta.url), 'utf8'));

test('cards and pile keys are the golden ones', () => {
  setLanguage('en', false);
  for (const [card, glyphs] of Object.entries(golden.cards)) assert.equal(cardGlyphs(card), glyphs, card);
  for (const [pile, label] of Object.entries(golden.pile_keys)) assert.equal(keyLabel(pile), label, pile);
});

test('refusals and hints read as the golden ones, in English and French', () => {
  for (const lang of ['en', 'fr']) {
    setLanguage(lang, false);
    for (const example of golden.refusals) assert.equal(refusalWords(example.engine, golden.variant), example.browser[lang], example.engine);
    for (const example of golden.moves) assert.equal(adviceWords(example.move, example.piles, golden.variant), example.browser[lang], example.move);
  }
  setLanguage('en', false);
});
