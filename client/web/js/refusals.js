// The server's refusals and hints in the player's words. The engine explains a refusal in
// English and in notation ("'r1>f0' is not legal now: 4S cannot go on f0"); the page shows the
// reason alone, with every pile, card and move as the screen names them ("4♠", "foundation 1",
// "free cell 2"), in the page's language: the reasons the engine gives are matched by pattern
// (i18n/reasons.js) and said again from the language's table; one no pattern knows keeps the
// engine's English, its notation translated all the same.

import { cardGlyphs, pileName } from './cards.js';
import { t } from './i18n.js';
import { REASONS } from './i18n/reasons.js';
import { NAMES } from './names.js';
import { parseMove } from './notation.js';

// a pile and a card in notation: the table of names both clients share (names.js)
const PILE = NAMES.notation.pile;
const MOVE = `'?(${PILE}(?::\\d+)?>(?:${PILE}|f))'?`;
const CARD = NAMES.notation.card;
/** One token of notation inside a sentence: a move, a pile id, a card, a quoted keyword. */
const TOKEN = new RegExp(`(?<![\\w'])(?:${MOVE}|(${PILE})|(${CARD})|'(deal|auto)')(?![\\w'])`, 'g');
/** The engine's frame around a reason: "'t4>t0' is not legal now: ". */
const FRAME = /^'[^']*' is not legal(?: now)?: /;

function moveText(move, variant) {
  const m = parseMove(move);
  if (!m) return move;
  return `${pileName(m.src, variant)} \u2192 ${pileName(m.dst, variant)}`;
}

/** Every piece of notation in ``text`` replaced by the name the screen shows. */
export function translateNotation(text, variant) {
  return text.replace(TOKEN, (all, move, pile, card, word) => {
    if (move) return moveText(move, variant);
    if (pile) return pileName(pile, variant);
    if (card) return cardGlyphs(card);
    return word;
  });
}

/** A refusal's reason, without the engine's frame, in the page's words. */
export function refusalWords(text, variant) {
  const reason = String(text ?? '').replace(FRAME, '');
  const name = (token) => translateNotation(token, variant);
  for (const [pattern, key] of REASONS) {
    const m = pattern.exec(reason);
    if (m) return t(key, ...m.slice(1).map((part) => (part === undefined ? part : name(part))));
  }
  return name(reason);
}
