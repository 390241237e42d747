// Both languages say everything: every key of one table is in the other, every key a module asks
// for is in the tables, and the words shown to a player (refusals, hints, names) hold no notation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { en } from '../../../client/web/js/i18n/en.js';
import { fr } from '../../../client/web/js/i18n/fr.js';
import { preferredLanguage, setLanguage, t } from '../../../client/web/js/i18n.js';
import { adviceWords, pileName, rankText } from '../../../client/web/js/cards.js';
import { refusalWords } from '../../../client/web/js/refusals.js';
import { RULES } from '../../../client/web/js/rules.js';

const JS = new URL('../../../client/web/js/', import.meta.url);
/** Notation a player should never read: a pile id, a card in letters, a move. */
const NOTATION = /(?<![\w'])(?:[tfr]\d|[A2-9TJQK][CDHS]|\w\d?(?::\d+)?>\w\d?)(?![\w'])/;

function modules(dir = JS) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory()
    ? modules(new URL(`${entry.name}/`, dir))
    : entry.name.endsWith('.js') ? [new URL(entry.name, dir)] : []));
}

test('every key of one language is in the other, with the same kind of value', () => {
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en)) assert.equal(typeof fr[key], typeof en[key], key);
  for (const key of Object.keys(en)) {
    if (typeof en[key] === 'string') assert.ok(fr[key].trim().length > 0, key);
  }
});

test('every key a module asks for is in the tables', () => {
  const asked = new Set();
  for (const url of modules()) {
    for (const m of readFileSync(url, 'utf8').matchAll(/\bt\('([^'`]+)'/g)) asked.add(m[1]);
  }
  assert.ok(asked.size > 50);
  for (const key of asked) assert.ok(key in en, `${key} is missing from the tables`);
});

test('the rules of every game are written in both languages, section by section', () => {
  assert.deepEqual(Object.keys(RULES.fr).sort(), Object.keys(RULES.en).sort());
  for (const [game, text] of Object.entries(RULES.en)) {
    assert.deepEqual(Object.keys(RULES.fr[game]).sort(), Object.keys(text).sort(), game);
  }
});

test('the browser language chooses, a choice made here wins', () => {
  assert.equal(preferredLanguage(null, ['fr-CA', 'en']), 'fr');
  assert.equal(preferredLanguage(null, ['de-DE']), 'en');
  assert.equal(preferredLanguage('en', ['fr-FR']), 'en');
});

const FREECELL = { id: 'freecell', name: 'Freecell', pile_names: { r0: 'free cell 1', r1: 'free cell 2', t0: 'tableau 1', f0: 'foundation 1' } };
const REFUSALS = [
  "'t4>t0' is not legal now: JC cannot go on JD: needs the other colour, one rank lower",
  "'r1>f0' is not legal now: 4S cannot start f0: an empty foundation takes only an ace",
  "'t3:4>t7' is not legal now: 4 cards cannot move at once: with 0 empty free cells and 1 other empty columns the limit is 2",
  "'t2>r0' is not legal now: free cell r0 is not empty",
  "'deal' is not legal now: Freecell has no stock",
  "'w>f' is not legal now: no foundation takes 9H",
  "'t1>t1' is not legal now: t1 cannot move onto itself",
  'the game is stuck: no card can reach a foundation any more; only undo is possible',
  "'t0>f2' is not legal now: QH cannot go on f2: f2 takes only hearts",
];

test('refusals and hints are said in the names and glyphs on screen, in both languages', () => {
  for (const lang of ['en', 'fr']) {
    setLanguage(lang, false);
    for (const text of REFUSALS) {
      const words = refusalWords(text, FREECELL);
      assert.ok(!NOTATION.test(words), `${lang}: ${words}`);
    }
    const advice = adviceWords('t6>f2', [{ id: 't6', down: 0, up: ['5H'] }], FREECELL);
    assert.ok(!NOTATION.test(advice), advice);
  }
  setLanguage('en', false);
  assert.equal(refusalWords(REFUSALS[0], FREECELL), 'J\u2663 cannot go on J\u2666: needs the other colour, one rank lower');
  assert.equal(refusalWords(REFUSALS[3], FREECELL), 'free cell 1 is not empty');
  assert.equal(adviceWords('t6>f2', [{ id: 't6', down: 0, up: ['5H'] }], FREECELL), 'move 5\u2665 from tableau 7 to foundation 3');
  setLanguage('fr', false);
  assert.equal(refusalWords(REFUSALS[0], FREECELL), 'V\u2663 ne peut pas aller sur V\u2666 : il faut l\u2019autre couleur, un rang en dessous');
  assert.equal(pileName('r0', FREECELL), 'cellule libre 1');
  assert.equal(rankText('QS'), 'D');
  assert.equal(t('button.undo'), 'Annuler');
  setLanguage('en', false);
});
