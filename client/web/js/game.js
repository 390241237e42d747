// One game on screen: its board, its counters, its controls, and the ply rule from the client's
// side.
//
// A move is drawn at once (cards moved from pile to pile) and sent with the ply of the last view
// the server sent. The server's reply is the board from then on; a refusal or stale_ply puts the
// server's view back and says why. One action is in flight at a time: while it waits (offline
// too) the board shows it and the next one waits; the connection sends it again once back, and
// the ply makes the server play it once.

import { Board } from './board.js';
import { moveWords, pileName } from './cards.js';
import { dialect } from './dialect.js';
import { checkDeal, dealWords, revealWords, verifyCommand } from './fairplay.js';
import { keyOf, pileForKey } from './layout.js';
import { optimisticPiles } from './selection.js';
import { announce, clockText, copyText, h, stateWords } from './ui.js';

export const ENDED = new Set(['won', 'resigned', 'timeout']);
/** Why hints are off, by the kind of game (the server's ``hints_off`` in words). */
const HINTS_OFF = {
  daily: 'Hints are off in a ranked daily attempt (practice games allow them).',
  race: 'Hints are off in this race: the room was made without them.',
};
const REFUSALS = {
  hints_off: 'Hints are off in this game.',
  busy: 'The server is busy working out a hint (this window\u2019s last one, or too many at once): ask again in a moment.',
  game_over: 'This game is over.',
  rate_limited: 'Too fast: the server asked to slow down.',
};

/** The keys of the board, as the page's help lists them (the terminal client's keys). */
export const KEYS = [
  ['1 \u2026 9, 0', 'pick tableau pile 1 \u2026 10 (as the card to move, then as the destination)'],
  ['q w e r', 'free cells / reserves 1 \u2026 4'],
  ['x', 'waste'],
  ['F1 \u2026 F8', 'foundations 1 \u2026 8'],
  ['+ / -', 'more / fewer cards in the picked group'],
  ['space', 'deal (the stock)'],
  ['f', 'the picked card to whichever foundation takes it'],
  ['a', 'auto: every card that can go to a foundation'],
  ['h, then Enter', 'ask for a hint, then play it'],
  ['u', 'undo'],
  ['R R', 'resign (twice)'],
  ['Esc', 'drop the pick'],
  ['?', 'show or hide these keys'],
];

export function keysHelp() {
  return h('details', { class: 'keys' },
    h('summary', {}, 'Keys'),
    h('table', {}, h('tbody', {}, KEYS.map(([key, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, key)), h('td', {}, what))))));
}

export class GamePanel {
  /**
   * ``options.kind``: "solo", "daily", "practice" or "race" (what the header says);
   * ``options.hints``: false where the server refuses hints (a daily attempt, a race room
   * without hints): the Hint button is disabled and says why;
   * ``options.title``: extra words for the header; ``options.onView(view)``: every view adopted;
   * ``options.endActions(view)``: buttons for the end banner.
   */
  constructor(app, view, options = {}) {
    this.app = app;
    this.options = options;
    this.view = null;
    this.pending = null;
    this.hint = null;
    this.resignArmed = false;
    this.hintsOff = options.hints === false;
    this.dealShown = null;
    this.receivedAt = performance.now();
    const variant = app.variants.get(view.variant) ?? { id: view.variant, name: view.variant };
    this.variant = variant;
    this.element = h('section', { class: 'game', 'aria-label': `${variant.name} game` });
    this.header = h('div', { class: 'game-head' });
    this.status = h('p', { class: 'status', 'aria-live': 'off' });
    this.message = h('p', { class: 'message', role: 'status' });
    this.banner = h('div', { class: 'banner', hidden: true });
    this.toolbar = this.buildToolbar();
    const boardEl = h('div', { 'aria-label': `${variant.name} board`, role: 'region', tabindex: '-1', class: 'board-holder' });
    this.boardEl = boardEl;
    this.board = new Board(boardEl, {
      variant,
      layout: dialect.layout(variant, view.piles.map((p) => p.id)),
      onAction: (move) => this.play(move),
      onNotice: (text) => this.say(text),
    });
    this.element.append(this.header, this.status, this.toolbar, this.message, boardEl, this.banner);
    this.timer = setInterval(() => this.tick(), 1000);
    this.adopt(view);
  }

  focusBoard() {
    if (!this.confirmBox.hidden) return;
    this.boardEl.focus({ preventScroll: true });
  }

  destroy() {
    clearInterval(this.timer);
    this.board.destroy();
  }

  buildToolbar() {
    // after a control, keys go to the board again (Enter then plays a hint, not the button)
    const button = (label, action, extra = {}) => h('button', { type: 'button', onclick: () => { action(); this.focusBoard(); }, ...extra }, label);
    this.resignButton = button('Resign', () => this.resign());
    this.confirmBox = h('span', { class: 'confirm', hidden: true },
      'Resign this game? ',
      button('Yes, resign', () => this.play('resign')),
      button('Keep playing', () => this.disarm()));
    this.hintButton = button('Hint', () => this.askHint(), { title: 'h' });
    this.hintNote = h('span', { class: 'hint-note', id: `hint-note-${Math.random().toString(36).slice(2, 8)}`, hidden: true });
    this.hintButton.setAttribute('aria-describedby', this.hintNote.id);
    this.drawHintsOff();
    return h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Game controls' },
      button('Deal', () => this.play('deal'), { title: 'space' }),
      button('Undo', () => this.play('undo'), { title: 'u' }),
      this.hintButton,
      button('Auto', () => this.play('auto'), { title: 'a' }),
      this.resignButton,
      this.confirmBox,
      keysHelp(),
      this.hintNote);
  }

  hintsOffWords() {
    return HINTS_OFF[this.options.kind] ?? REFUSALS.hints_off;
  }

  /** The Hint button, disabled with the reason beside it where the server refuses hints. */
  drawHintsOff() {
    this.hintButton.disabled = this.hintsOff;
    this.hintNote.hidden = !this.hintsOff;
    this.hintNote.textContent = this.hintsOff ? this.hintsOffWords() : '';
    this.hintButton.title = this.hintsOff ? this.hintsOffWords() : 'h';
  }

  // -- views ---------------------------------------------------------------------------------

  adopt(view) {
    const wasEnded = this.view && ENDED.has(this.view.state);
    this.view = view;
    this.receivedAt = performance.now();
    this.hint = null;
    if (!this.pending) this.board.show(view);
    this.drawHead();
    this.drawStatus();
    this.drawBanner();
    this.options.onView?.(view);
    if (!wasEnded && ENDED.has(view.state)) this.options.onEnded?.(view);
  }

  /** A view from elsewhere (a reconnect's get_game): adopted unless older than the one shown. */
  offer(view) {
    if (view.id === this.view.id && view.ply >= this.view.ply && !this.pending) this.adopt(view);
  }

  /** The header: the game's name, and its deal: "#617", or a keyed deal by the start of its
   * commitment (the whole of it, and when the key shows), then its key once revealed, with a
   * check made in the browser and the command that makes it anywhere. Drawn again only when
   * the deal changes (a key revealed), so that a check's answer stays. */
  drawHead() {
    const v = this.view;
    const deal = v.deal ?? {};
    const shown = JSON.stringify([v.id, deal]);
    if (shown === this.dealShown) return;
    this.dealShown = shown;
    const title = h('h2', {}, `${this.variant.name}${this.options.title ? ` \u00b7 ${this.options.title}` : ''}`);
    const dealLine = h('p', { class: 'deal' }, `Deal ${dealWords(deal)}`);
    const parts = [title, dealLine];
    if (deal.commitment) {
      dealLine.append(' ', h('span', { class: 'commitment' }, `commitment ${deal.commitment}`));
      if (!deal.key) dealLine.append(h('span', { class: 'reveal' }, ` (${revealWords(this.options.kind)})`));
    }
    if (deal.key && deal.commitment) parts.push(this.fairPlay(v, deal));
    this.header.replaceChildren(...parts);
  }

  fairPlay(v, deal) {
    const result = h('span', { class: 'check-result', role: 'status' });
    const check = async () => {
      result.textContent = 'checking\u2026';
      const { matches, digest, by } = await checkDeal(v.variant, deal);
      result.dataset.matches = String(matches);
      result.textContent = matches
        ? `The key matches the commitment (SHA-256 by ${by}): this deal was fixed before play began.`
        : `The key does NOT match the commitment: SHA-256 of it is ${digest}.`;
      announce(result.textContent);
    };
    const command = verifyCommand(v.variant, deal, v.options, this.variant.options ?? {});
    const copied = h('span', { role: 'status' });
    const commandLine = command ? h('p', { class: 'verify' }, 'Or check it anywhere with the project\u2019s command: ',
      h('input', { class: 'verify-command', readonly: true, value: command, 'aria-label': 'Command that checks the deal', onfocus: (e) => e.target.select() }), ' ',
      h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(command)) ? ' copied' : ' select the command to copy it'; } }, 'Copy command'), copied) : null;
    return h('div', { class: 'fairplay' },
      h('p', { class: 'deal' }, h('span', { class: 'deal-key' }, `key ${deal.key}`), ' ',
        h('button', { type: 'button', onclick: check }, 'Check the deal'), ' ', result),
      commandLine,
      h('p', {}, h('a', { href: `/play/${v.variant}?key=${deal.key}`, 'data-link': '' }, 'Play this deal again')));
  }

  elapsed() {
    const v = this.view;
    return v.elapsed_ms + (v.state === 'playing' ? performance.now() - this.receivedAt : 0);
  }

  drawStatus() {
    const v = this.view;
    const bits = [`Score ${v.score}/${v.max_score}`, `Moves ${v.moves}`];
    if (v.undos !== undefined) bits.push(`Undos ${v.undos}`);
    if (v.hints !== undefined) bits.push(`Hints ${v.hints}`);
    const stock = v.piles.find((p) => p.id === 's');
    if (stock) bits.push(`Stock ${stock.down + stock.up.length}`);
    if (stock || v.redeals_left) bits.push(`Redeals ${v.redeals_left === null ? '\u221e' : v.redeals_left}`);
    bits.push(`Time ${clockText(this.elapsed())}`);
    bits.push(stateWords(v.state));
    this.status.textContent = bits.join(' \u00b7 ');
    this.status.dataset.state = v.state;
  }

  tick() {
    if (this.view?.state === 'playing') this.drawStatus();
  }

  drawBanner() {
    const v = this.view;
    const lines = [];
    if (v.state === 'won') lines.push(`You won in ${clockText(v.elapsed_ms)} with ${v.moves} moves.`);
    else if (v.state === 'resigned') lines.push(`Resigned with ${v.score} of ${v.max_score}.`);
    else if (v.state === 'timeout') lines.push(`Time is up: ${v.score} of ${v.max_score}.`);
    else if (v.state === 'stuck') lines.push('No move left can change the outcome: undo, or resign.');
    if (!lines.length) {
      this.banner.hidden = true;
      return;
    }
    const actions = ENDED.has(v.state) ? this.options.endActions?.(v) ?? [
      h('a', { href: `/play/${v.variant}`, 'data-link': '', class: 'button' }, 'New game'),
      h('a', { href: '/', 'data-link': '', class: 'button' }, 'Home'),
    ] : [];
    this.banner.replaceChildren(h('p', {}, ...lines), h('div', { class: 'actions' }, actions));
    this.banner.hidden = false;
  }

  say(text) {
    this.message.textContent = text;
  }

  // -- actions -------------------------------------------------------------------------------

  async play(move) {
    this.disarm();
    if (this.pending) {
      this.say('Waiting for the server to answer the last move\u2026');
      this.board.show(this.view, this.pending.piles ?? null);
      return;
    }
    const view = this.view;
    const kind = move === 'undo' || move === 'resign' ? move : 'move';
    const request = { type: kind, game: view.id, ply: view.ply };
    if (kind === 'move') request.move = move;
    const piles = view.state === 'playing' ? optimisticPiles(view.piles, move, view.legal) : null;
    const words = moveWords(move, view.piles, view.variant);
    this.pending = { move, piles };
    this.board.show(view, piles);
    this.say(this.app.conn.online ? '' : 'Offline: this move will be sent when the connection is back.');
    try {
      const reply = await this.app.conn.request(request);
      this.pending = null;
      this.adopt(reply.game);
      this.say('');
      announce(move === 'resign' ? 'Resigned.' : `${words}.`);
    } catch (err) {
      this.pending = null;
      if (err.code === 'stale_ply' && err.reply?.game) {
        this.adopt(err.reply.game);
        this.say(`The game had moved on (another window?): your move ${move} was not played; this is the server's board.`);
      } else {
        this.board.show(this.view);
        this.say(`${REFUSALS[err.code] ?? 'Refused'}${err.message && !REFUSALS[err.code] ? `: ${err.message}` : ''}`);
      }
      announce(this.message.textContent);
    }
  }

  resign() {
    if (ENDED.has(this.view.state)) return;
    this.resignArmed = true;
    this.confirmBox.hidden = false;
    this.confirmBox.querySelector('button')?.focus();
  }

  disarm() {
    this.resignArmed = false;
    this.confirmBox.hidden = true;
  }

  async askHint() {
    if (this.hintsOff) {
      this.say(this.hintsOffWords());
      announce(this.message.textContent);
      return;
    }
    try {
      const reply = await this.app.conn.request({ type: 'hint', game: this.view.id });
      this.hint = reply.move ?? null;
      if (!this.hint) { this.say('No hint: the game has ended.'); return; }
      this.board.showHint(this.hint);
      this.say(`Hint: ${moveWords(this.hint, this.view.piles, this.view.variant)} (Enter plays it).`);
    } catch (err) {
      if (err.code === 'hints_off') {
        this.hintsOff = true; // the server says so: the button says it from now on
        this.drawHintsOff();
        this.say(this.hintsOffWords());
      } else this.say(REFUSALS[err.code] ?? `No hint: ${err.message}`);
    }
    announce(this.message.textContent);
  }

  /** A key on the board; true when it was the board's. */
  key(e) {
    const k = e.key;
    const ids = this.view.piles.map((p) => p.id);
    if (k === 'R') {
      if (this.resignArmed) this.play('resign');
      else this.resign();
      return true;
    }
    if (this.resignArmed && k !== 'Shift') this.disarm();
    switch (k) {
      case ' ': this.board.drop(); this.play('deal'); return true;
      case 'u': this.play('undo'); return true;
      case 'a': this.play('auto'); return true;
      case 'h': this.askHint(); return true;
      case 'Enter':
        if (this.hint) { const move = this.hint; this.hint = null; this.play(move); return true; }
        return false;
      case 'f':
        if (!this.board.sendPickHome()) this.say('Pick a card first (its pile key), then f.');
        return true;
      case '+': case '=': this.board.stepPick(1); return true;
      case '-': this.board.stepPick(-1); return true;
      case 'Escape': return this.board.drop();
      default: break;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const pile = pileForKey(k, ids);
    if (pile && keyOf(pile) !== ' ') {
      this.board.keyPile(pile);
      const pick = this.board.pick;
      if (pick) this.say(`Picked ${pileName(pick.src, this.view.variant)}: now its destination.`);
      return true;
    }
    return false;
  }
}
