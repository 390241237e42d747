// A finished game, move by move, at /replay/ID: the server's ``replay`` answer (every board the
// player saw: the deal, then each action's changed piles) stepped through with First, Back,
// Forward, Last, and Play at a chosen speed; each step said in the board's names. Its address is
// the link to share (a game of someone else's opens once its deal is shown: the server decides).
//
// Keys: Home, Left, Right, End; space plays or pauses.

import { Board } from './board.js';
import { moveWords } from './cards.js';
import { dialect } from './dialect.js';
import { dealWords } from './fairplay.js';
import { replayBoards } from './movelist.js';
import { ENDED, PLAYING, WON } from './notation.js';
import { t } from './i18n.js';
import { announce, clockText, copyText, h, stateWords } from './ui.js';

export { replayBoards };

/** Moves a second when playing. */
export const SPEEDS = [1, 2, 4, 8];
const DEFAULT_SPEED = 2;

/** The step an address asks for (``?step=N``), within the replay. */
export function stepFrom(query, last) {
  const n = Number.parseInt(query ?? '', 10);
  return Number.isFinite(n) ? Math.max(0, Math.min(last, n)) : 0;
}

/** Why a replay is not there, in words, from the server's refusal. */
function refusalWords(err) {
  if (err.code === 'not_found') return t('replay.none');
  if (err.code === 'race_locked') return t('replay.raceLocked');
  if (err.code === 'forbidden') return /secret/.test(err.message ?? '') ? t('replay.secret') : t('replay.playing');
  return err.message || err.code;
}

export async function replayScreen(app, id, query) {
  let reply;
  const refused = (words, link = null) => ({
    element: h('section', { class: 'screen' }, h('h1', {}, t('replay.title')),
      h('p', { class: 'problem', role: 'alert' }, words),
      link, ' ', h('a', { href: '/', 'data-link': '' }, t('button.home'))),
  });
  try {
    reply = await app.conn.request({ type: 'replay', game: id });
  } catch (err) {
    return refused(refusalWords(err));
  }
  // one's own game still being played (the server tells its player, for the move list): the
  // replay waits for its end; the game is a link away
  if (!ENDED.has(reply.state)) {
    return refused(t('replay.playing'), h('a', { href: `/game/${encodeURIComponent(id)}`, 'data-link': '' }, t('replay.toGame')));
  }
  return new ReplayScreen(app, reply, stepFrom(query?.get('step'), reply.actions.length)).screen();
}

class ReplayScreen {
  constructor(app, reply, step) {
    this.app = app;
    this.reply = reply;
    this.boards = replayBoards(reply);
    this.step = step;
    this.timer = null;
    this.speed = DEFAULT_SPEED;
    const variant = app.variants.get(reply.variant) ?? { id: reply.variant, name: reply.variant };
    this.variant = variant;
    const boardEl = h('div', { class: 'board-holder', role: 'region', tabindex: '-1', 'aria-label': t('game.board', variant.name) });
    this.board = new Board(boardEl, { variant, layout: dialect.layout(variant, this.boards[0].map((p) => p.id)) });
    const button = (cls, label, action, key) => h('button', { type: 'button', class: cls, title: key, onclick: () => { action(); boardEl.focus({ preventScroll: true }); } }, label);
    this.first = button('replay-first', t('replay.first'), () => this.go(0), 'Home');
    this.back = button('replay-back', t('replay.back'), () => this.go(this.step - 1), '\u2190');
    this.forward = button('replay-forward', t('replay.forward'), () => this.go(this.step + 1), '\u2192');
    this.last = button('replay-last', t('replay.last'), () => this.go(this.boards.length - 1), 'End');
    this.playButton = button('replay-play', t('replay.play'), () => this.toggle(), t('keys.space'));
    this.speedSelect = h('select', { id: 'replay-speed', onchange: (e) => { this.speed = Number(e.target.value); if (this.timer) { this.pause(); this.resume(); } } },
      SPEEDS.map((n) => h('option', { value: n, selected: n === this.speed }, t('replay.speed', n))));
    this.counter = h('p', { class: 'replay-step', role: 'status' });
    const copied = h('span', { role: 'status' });
    const link = () => `${location.origin}/replay/${encodeURIComponent(reply.game)}`;
    const share = h('button', { type: 'button', class: 'replay-share', onclick: async () => { copied.textContent = (await copyText(link())) ? t('copied') : link(); } }, t('replay.copyLink'));
    const ending = reply.state === WON ? t('replay.won', clockText(reply.elapsed_ms), reply.actions.length) : stateWords(reply.state);
    this.element = h('section', { class: 'screen replay', 'aria-label': t('replay.title') },
      h('div', { class: 'game-head' },
        h('h2', {}, t('replay.heading', variant.name, reply.player)),
        h('p', { class: 'deal' }, t('deal', dealWords(reply.deal)), ' \u00b7 ', ending)),
      h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': t('replay.controls') },
        this.first, this.back, this.playButton, this.forward, this.last,
        h('label', { for: 'replay-speed', class: 'replay-speed-label' }, t('replay.speedLabel')), this.speedSelect,
        share, copied, h('a', { href: '/', 'data-link': '', class: 'button' }, t('button.home'))),
      this.counter,
      h('div', { class: 'table' }, boardEl));
    this.show(false);
  }

  screen() {
    return {
      element: this.element,
      key: (e) => this.key(e),
      destroy: () => { this.pause(); this.board.destroy(); },
    };
  }

  view() {
    const last = this.step === this.boards.length - 1;
    return { id: this.reply.game, variant: this.reply.variant, state: last ? this.reply.state : PLAYING, ply: this.step, piles: this.boards[this.step], legal: [] };
  }

  show(say = true) {
    const n = this.reply.actions.length;
    this.board.show(this.view());
    this.counter.textContent = this.step === 0 ? t('replay.start', n)
      : t('replay.at', this.step, n, moveWords(this.reply.actions[this.step - 1], this.boards[this.step - 1], this.variant, true));
    this.counter.dataset.step = String(this.step);
    this.first.disabled = this.back.disabled = this.step === 0;
    this.forward.disabled = this.last.disabled = this.step === n;
    if (this.step === n && this.timer) this.pause();
    history.replaceState(null, '', `/replay/${encodeURIComponent(this.reply.game)}${this.step ? `?step=${this.step}` : ''}`);
    if (say) announce(this.counter.textContent);
  }

  go(step) {
    const next = Math.max(0, Math.min(this.boards.length - 1, step));
    if (next === this.step) return;
    this.step = next;
    this.show(!this.timer);
  }

  toggle() {
    if (this.timer) this.pause();
    else {
      if (this.step === this.boards.length - 1) this.go(0);
      this.resume();
    }
  }

  resume() {
    this.timer = setInterval(() => this.go(this.step + 1), 1000 / this.speed);
    this.playButton.textContent = t('replay.pause');
    this.playButton.setAttribute('aria-pressed', 'true');
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = t('replay.play');
    this.playButton.setAttribute('aria-pressed', 'false');
  }

  key(e) {
    switch (e.key) {
      case 'ArrowLeft': this.go(this.step - 1); return true;
      case 'ArrowRight': this.go(this.step + 1); return true;
      case 'Home': this.go(0); return true;
      case 'End': this.go(this.boards.length - 1); return true;
      case ' ': this.toggle(); return true;
      default: return false;
    }
  }
}
