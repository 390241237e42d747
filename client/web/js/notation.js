// The engine's notation as the client reads and writes it, once: pile ids, moves, the words
// sent as actions, and the names of a game's states. Everything else imports from here.
//
//   pile ids   t0..t9 tableau, r0..r3 reserves (cells), f0..f7 foundations, w waste, s stock
//   moves      "t3>f0", "t2:3>t5" (three cards), "w>f" (to whichever foundation takes it)
//   actions    "deal", "auto" besides moves; undo and resign are requests of their own

const PILE = '[a-z]\\d?';
const MOVE = new RegExp(`^(${PILE})(?::(\\d+))?>(${PILE})$`);

export const DEAL = 'deal';
export const AUTO = 'auto';
export const UNDO = 'undo';
export const RESIGN = 'resign';
export const STOCK = 's';
export const WASTE = 'w';
/** The destination of a move that goes to whichever foundation takes the card. */
export const ANY_FOUNDATION = 'f';

/** A pile's kind: "t" tableau, "r" reserve, "f" foundation, "w" waste, "s" stock. */
export function pileKind(id) {
  return id[0];
}

/** A pile's place among those of its kind, from 0 (null for the waste and the stock). */
export function pileIndex(id) {
  return id.length > 1 ? Number(id.slice(1)) : null;
}

/** A move string as {src, count, dst}, or null for "deal" and anything else. */
export function parseMove(text) {
  const m = MOVE.exec(text);
  return m ? { src: m[1], count: Number(m[2] || 1), dst: m[3] } : null;
}

export function formatMove(src, count, dst) {
  return count > 1 ? `${src}:${count}>${dst}` : `${src}>${dst}`;
}

/** The states of a game, as GameView's ``state`` names them. */
export const PLAYING = 'playing';
export const WON = 'won';
export const STUCK = 'stuck';
export const RESIGNED = 'resigned';
export const TIMEOUT = 'timeout';
/** States after which nothing can be played (stuck still takes undo). */
export const ENDED = new Set([WON, RESIGNED, TIMEOUT]);
/** States a game can still be taken up in. */
export const UNFINISHED = new Set([PLAYING, STUCK]);
