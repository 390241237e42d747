// The move list of the game on screen: every move of its current line since the deal, in the
// board's names ("Q♥ from tableau 8 to tableau 2"); an undo takes the last one off, as it takes
// the move back. A game opened midway (a reload, a game resumed here or on another device) asks
// the server for its moves so far when the list is first opened (`replay`, which a game's own
// player may ask while it is played, docs/protocol.md) and names each on the board it was
// played on; until then, and from a server that does not answer, those moves are counted.

import { moveWords } from './cards.js';
import { t } from './i18n.js';
import { UNDO } from './notation.js';
import { h } from './ui.js';

/** Every board of a replay, whole: the first as sent, each next one the one before with the
 * piles its step changed (in the first board's order). */
export function replayBoards(reply) {
  const first = reply.boards[0].piles;
  const boards = [first];
  let now = first;
  for (const step of reply.boards.slice(1)) {
    const changed = new Map(step.piles.map((pile) => [pile.id, pile]));
    now = now.map((pile) => changed.get(pile.id) ?? pile);
    boards.push(now);
  }
  return boards;
}

/** The current line of ``actions`` in words, each read on the board before it (``boards[i]``):
 * an undo takes the last move off, as it does on the board. */
export function lineWords(actions, boards, variant) {
  const line = [];
  actions.forEach((action, i) => {
    if (action === UNDO) line.pop();
    else line.push(moveWords(action, boards[i], variant, true));
  });
  return line;
}

export class MoveList {
  /** ``openedAt``: the ply the game had when the page opened it; ``current()``: {id, ply,
   * idle} of the game now (idle: no action waiting for its answer). */
  constructor(conn, variant, openedAt, current) {
    this.conn = conn;
    this.variant = variant;
    this.current = current;
    this.line = []; // the moves of the current line this page knows, in words
    this.counted = openedAt; // actions before them that it has not named yet
    this.items = h('ol', { class: 'move-list-items' });
    this.element = h('details', { class: 'move-list', ontoggle: () => { if (this.element.open) this.load(); } },
      h('summary', {}, t('moves.title')), this.items);
    this.draw();
  }

  /** A move played on this page (an undo takes one off). */
  played(move, words) {
    if (move === UNDO) this.line.pop();
    else this.line.push(words);
    this.draw();
  }

  /** The moves played before the page opened, named from the server's record: the whole line
   * as the server has it, taken when no action of the page is on its way (else at the next
   * opening). */
  async load() {
    if (!this.counted || this.loading) return;
    this.loading = true;
    try {
      const game = this.current();
      const reply = await this.conn.request({ type: 'replay', game: game.id });
      const now = this.current();
      if (now.idle && now.id === reply.game && now.ply === reply.actions.length) {
        this.line = lineWords(reply.actions, replayBoards(reply), this.variant);
        this.counted = 0;
      }
    } catch { /* a server that does not say: the earlier moves stay counted */ }
    this.loading = false;
    this.draw();
  }

  draw() {
    const items = this.line.map((words) => h('li', {}, words));
    if (this.counted > 0) items.unshift(h('li', { class: 'earlier' }, t('moves.earlier', this.counted)));
    this.items.replaceChildren(...items);
    this.items.hidden = !items.length;
    this.items.scrollTop = this.items.scrollHeight;
  }
}
