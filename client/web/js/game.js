// One game on screen: its board, its counters, its controls, the end of the game, and the ply
// rule from the client's side.
//
// A move is drawn at once (cards moved from pile to pile) and sent with the ply of the last view
// the server sent. The server's reply is the board from then on; a refusal or stale_ply puts the
// server's view back and says why, in the player's words. One action is in flight at a time:
// while it waits (offline too) the board shows it and the next one waits; the connection sends it
// again once back, and the ply makes the server play it once.

import { Board } from './board.js';
import { adviceWords, moveWords, pileName } from './cards.js';
import { keysHelp } from './controls.js';
import { dialect } from './dialect.js';
import { fillBanner } from './endbanner.js';
import { gameHead } from './gamehead.js';
import { showHindsight } from './hindsight.js';
import { t } from './i18n.js';
import { keyOf, pileForKey } from './layout.js';
import { MoveList } from './movelist.js';
import { AUTO, DEAL, ENDED, PLAYING, RESIGN, STOCK, UNDO, WON, pileKind } from './notation.js';
import { refusalWords } from './refusals.js';
import { openRules } from './rules.js';
import { finishable, optimisticPiles } from './selection.js';
import { playSound } from './sounds.js';
import { announce, clockText, h, stateWords } from './ui.js';

export { ENDED };

/** Why hints are off, by the kind of game (the server's ``hints_off`` in words). */
/** A phone held upright: the message goes on a line of its own below the board, at the columns'
 * ends where the player looks, instead of above the board pushing it down. */
const MESSAGE_BELOW = '(max-width: 700px) and (min-height: 521px)';
const HINTS_OFF = { daily: 'hints.daily', race: 'hints.race', arena: 'hints.arena' };
const REFUSALS = { hints_off: 'hints.off', busy: 'refused.busy', game_over: 'refused.over', rate_limited: 'refused.rate' };

/** Cards on the foundations. */
function homeCount(piles) {
  return piles.reduce((n, p) => n + (pileKind(p.id) === 'f' ? p.up.length + p.down : 0), 0);
}

/** The address that deals ``view``'s deal again with its options: a numbered deal by its
 * number, a keyed one by its key once shown; null while the key is secret. */
export function restartHref(view) {
  const deal = view.deal ?? {};
  const query = new URLSearchParams();
  if (deal.seed) query.set('seed', String(deal.seed));
  else if (deal.key) query.set('key', deal.key);
  else return null;
  for (const [name, value] of Object.entries(view.options ?? {})) {
    query.set(name, value === true ? '1' : value === false ? '0' : String(value));
  }
  return `/play/${encodeURIComponent(view.variant)}?${query}`;
}

export class GamePanel {
  /**
   * ``options.kind``: "solo", "daily", "practice" or "race" (what the header says);
   * ``options.hints``: false where the server refuses hints (a daily attempt, a race room
   * without hints): the Hint button is disabled and says why;
   * ``options.title``: extra words for the header; ``options.onView(view)``: every view adopted;
   * ``options.endActions(view)``: buttons for the end banner; ``options.challenge``: false
   * where the banner offers no "Challenge a friend" (the game of a challenge).
   */
  constructor(app, view, options = {}) {
    this.app = app;
    this.options = options;
    this.view = null;
    this.pending = null;
    this.hint = null;
    this.resignArmed = false;
    this.hintsOff = options.hints === false;
    // the moves this page played, and those undone since: Redo plays the last undone one again
    this.played = [];
    this.undone = [];
    this.headShown = null;
    this.receivedAt = performance.now();
    const variant = app.variants.get(view.variant) ?? { id: view.variant, name: view.variant };
    this.variant = variant;
    this.element = h('section', { class: 'game', 'aria-label': t('game.region', variant.name) });
    this.header = h('div', { class: 'game-head' });
    this.statusText = h('span', {});
    this.status = h('p', { class: 'status', 'aria-live': 'off' }, this.statusText, ' ',
      h('button', { type: 'button', class: 'linkish score-help', 'aria-label': t('score.help'), title: t('score.help'), onclick: () => openRules(this.variant) }, '?'));
    this.message = h('p', { class: 'message', role: 'status' });
    this.banner = h('div', { class: 'banner', hidden: true, role: 'status' });
    this.toolbar = this.buildToolbar(view);
    const boardEl = h('div', { 'aria-label': t('game.board', variant.name), role: 'region', tabindex: '-1', class: 'board-holder' });
    this.boardEl = boardEl;
    this.board = new Board(boardEl, {
      variant,
      layout: dialect.layout(variant, view.piles.map((p) => p.id)),
      onAction: (move) => this.play(move),
      onNotice: (text) => this.say(text),
      below: () => (this.message.parentNode === this.element ? this.message.offsetHeight + 4 : 0),
      steady: () => this.message.parentNode === this.element,
    });
    this.table = h('div', { class: 'table' }, boardEl, this.banner);
    this.element.append(this.header, this.status, this.toolbar, this.table);
    this.messageBelow = globalThis.matchMedia?.(MESSAGE_BELOW);
    this.placeMessage = () => (this.messageBelow?.matches ? this.element : this.toolbar).append(this.message);
    this.placeMessage();
    this.messageBelow?.addEventListener('change', this.placeMessage);
    this.timer = setInterval(() => this.tick(), 1000);
    this.adopt(view);
  }

  focusBoard() {
    if (!this.confirmBox.hidden) return;
    this.boardEl.focus({ preventScroll: true });
  }

  destroy() {
    clearInterval(this.timer);
    this.messageBelow?.removeEventListener('change', this.placeMessage);
    this.board.destroy();
    // the board is gone: the server pauses an unranked game's clock once nobody shows it
    if (this.view && this.app.conn?.online) this.app.conn.request({ type: 'leave_game', game: this.view.id }).catch(() => {});
  }

  buildToolbar(view) {
    // after a control, keys go to the board again (Enter then plays a hint, not the button)
    const button = (label, action, extra = {}) => h('button', { type: 'button', onclick: () => { action(); this.focusBoard(); }, ...extra }, label);
    const ids = view.piles.map((p) => p.id);
    this.resignButton = button(t('button.resign'), () => this.resign());
    this.confirmBox = h('span', { class: 'confirm', hidden: true },
      t('resign.ask'),
      button(t('button.resignYes'), () => this.play(RESIGN)),
      button(t('button.keepPlaying'), () => this.disarm()));
    // Restart: a solo game only (a daily attempt or a race game is played once)
    this.restartBox = h('span', { class: 'confirm restart-confirm', hidden: true },
      t('restart.ask'),
      button(t('restart.yes'), () => this.restart()),
      button(t('button.keepPlaying'), () => this.disarm()));
    this.restartButton = this.options.kind === 'solo'
      ? button(t('button.restart'), () => this.armRestart(), { class: 'restart-button' }) : null;
    this.moveList = new MoveList(this.app.conn, this.variant, view.ply,
      () => ({ id: this.view.id, ply: this.view.ply, idle: !this.pending }));
    this.hintButton = button(t('button.hint'), () => this.askHint(), { title: 'h' });
    this.hintNote = h('span', { class: 'hint-note', id: `hint-note-${Math.random().toString(36).slice(2, 8)}`, hidden: true });
    this.hintButton.setAttribute('aria-describedby', this.hintNote.id);
    this.drawHintsOff();
    return h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': t('game.controls') },
      ids.includes(STOCK) ? button(t('button.deal'), () => this.play(DEAL), { title: t('keys.space') }) : null,
      button(t('button.undo'), () => this.play(UNDO), { title: 'u' }),
      this.redoButton = button(t('button.redo'), () => this.redo(), { disabled: true }),
      this.hintButton,
      button(t('button.auto'), () => this.play(AUTO), { title: 'a' }),
      this.resignButton,
      this.confirmBox,
      this.restartButton,
      this.restartBox,
      h('button', { type: 'button', class: 'rules-button', onclick: () => openRules(this.variant) }, t('button.rules')),
      keysHelp(ids, this.variant),
      this.moveList.element,
      this.hintNote);
  }

  hintsOffWords() {
    return t(HINTS_OFF[this.options.kind] ?? REFUSALS.hints_off);
  }

  /** The Hint button, disabled with the reason beside it where the server refuses hints. */
  drawHintsOff() {
    this.hintButton.disabled = this.hintsOff;
    this.hintNote.hidden = !this.hintsOff;
    this.hintNote.textContent = this.hintsOff ? this.hintsOffWords() : '';
    this.hintButton.title = this.hintsOff ? this.hintsOffWords() : 'h';
  }

  // -- views ---------------------------------------------------------------------------------

  /** ``home``: the cards the view sent home fly there (an autocomplete, Auto), the end's
   * banner once they have landed. */
  adopt(view, home = false) {
    const wasEnded = this.view && ENDED.has(this.view.state);
    this.view = view;
    this.receivedAt = performance.now();
    this.hint = null;
    this.drawHead();
    this.drawStatus();
    if (home && !this.pending) {
      this.banner.hidden = true;
      this.board.showHome(view).then(() => { if (this.view === view) this.drawBanner(); });
    } else {
      if (!this.pending) this.board.show(view);
      this.drawBanner();
    }
    this.options.onView?.(view);
    if (!wasEnded && ENDED.has(view.state)) this.options.onEnded?.(view);
  }

  /** A view from elsewhere (a reconnect's get_game): adopted unless older than the one shown. */
  offer(view) {
    if (view.id === this.view.id && view.ply >= this.view.ply && !this.pending) this.adopt(view);
  }

  /** The header, drawn again only when the deal changes (a key revealed), so that a check's
   * answer stays. */
  drawHead() {
    const v = this.view;
    const shown = JSON.stringify([v.id, v.deal ?? {}]);
    if (shown === this.headShown) return;
    this.headShown = shown;
    this.header.replaceChildren(...gameHead(v, this.variant, this.options.kind, this.options.title));
  }

  elapsed() {
    const v = this.view;
    return v.elapsed_ms + (v.state === PLAYING ? performance.now() - this.receivedAt : 0);
  }

  drawStatus() {
    const v = this.view;
    const bits = [t('status.score', v.score, v.max_score), t('status.moves', v.moves)];
    if (v.undos !== undefined) bits.push(t('status.undos', v.undos));
    if (v.hints !== undefined) bits.push(t('status.hints', v.hints));
    const stock = v.piles.find((p) => p.id === STOCK);
    if (stock) bits.push(t('status.stock', stock.down + stock.up.length));
    if (stock || v.redeals_left) bits.push(t('status.redeals', v.redeals_left === null ? '\u221e' : v.redeals_left));
    bits.push(t('status.time', clockText(this.elapsed())));
    bits.push(stateWords(v.state));
    // a counter never breaks between its word and its number (app.css: .status .bit)
    // each dot kept with the counter before it (a no-break space): a wrapped line never starts with one
    this.statusText.replaceChildren(...bits.flatMap((bit, i) => [i ? '\u00a0\u00b7 ' : '', h('span', { class: 'bit' }, bit)]));
    const cards = v.piles.reduce((n, p) => n + p.down + p.up.length, 0);
    this.statusText.title = v.max_score === cards ? t('score.explain', v.max_score) : t('score.explainOther', v.max_score);
    this.status.dataset.state = v.state;
  }

  tick() {
    if (this.view?.state === PLAYING) this.drawStatus();
  }

  /** The end of a game, over the board where the player is looking (endbanner.js). */
  drawBanner() {
    const shown = fillBanner(this.banner, this.view, this.variant, {
      undo: () => this.play(UNDO),
      resign: () => this.resign(),
      endActions: this.options.endActions,
      stats: () => this.app.conn.request({ type: 'stats' }),
      couldWin: () => showHindsight(this, this.banner.appendChild(h('div', { class: 'hindsight' }))),
      challenge: this.challengeable() ? (bestOf) => this.app.conn.request({ type: 'challenge_create', game: this.view.id, best_of: bestOf }) : null,
    });
    this.banner.hidden = !shown;
    this.table.classList.toggle('ended', shown);
  }

  /** Whether the end banner offers "Challenge a friend": a solo or practice game (the server
   * refuses the others), not the game of a challenge itself. */
  challengeable() {
    return this.options.challenge !== false && !['daily', 'race', 'arena'].includes(this.options.kind);
  }

  say(text, kind = 'problem') {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
  }

  // -- actions -------------------------------------------------------------------------------

  async play(move) {
    this.disarm();
    if (this.pending) {
      this.say(t('waiting'), 'info');
      this.board.show(this.view, this.pending.piles ?? null);
      return;
    }
    const view = this.view;
    const kind = move === UNDO || move === RESIGN ? move : 'move';
    const request = { type: kind, game: view.id, ply: view.ply };
    if (kind === 'move') request.move = move;
    const piles = view.state === PLAYING && move !== AUTO ? optimisticPiles(view.piles, move, view.legal) : null;
    const words = moveWords(move, view.piles, this.variant);
    const listed = moveWords(move, view.piles, this.variant, true);
    this.pending = { move, piles };
    this.board.show(view, piles);
    this.say(this.app.conn.online ? '' : t('offline.move'), 'info');
    try {
      const reply = await this.app.conn.request(request);
      this.pending = null;
      this.remember(move, listed);
      // Auto, or a move after which the game sent cards home itself (Freecell's autoplay)
      this.adopt(reply.game, move === AUTO || homeCount(reply.game.piles) - homeCount(view.piles) > 1);
      playSound(reply.game.state === WON && view.state !== WON ? 'win' : 'move');
      this.say('');
      announce(move === RESIGN ? t('resigned') : `${words}.`);
      // every card left can go home: they go (an autocomplete)
      if (move !== AUTO && move !== UNDO && move !== RESIGN && finishable(reply.game)) {
        this.say(t('finishing'), 'info');
        this.play(AUTO);
      }
    } catch (err) {
      this.pending = null;
      if (err.code === 'stale_ply' && err.reply?.game) {
        this.adopt(err.reply.game);
        this.say(t('stale'));
      } else {
        this.board.show(this.view);
        playSound('refusal');
        this.say(REFUSALS[err.code] ? t(REFUSALS[err.code]) : err.message ? t('refused', refusalWords(err.message, this.variant)) : t('refused.plain'));
      }
      announce(this.message.textContent);
    }
  }

  /** Keep what Redo needs: an undo moves the last move played to the undone ones; any other
   * move forgets them (it is a new line of play). The move list follows the line. */
  remember(move, words) {
    if (move === UNDO) {
      const last = this.played.pop();
      if (last) this.undone.push(last);
    } else if (move !== RESIGN) {
      this.played.push(move);
      if (move !== this.redoing) this.undone = [];
    }
    if (move !== RESIGN) this.moveList.played(move, words);
    this.redoing = null;
    this.redoButton.disabled = !this.undone.length;
  }

  /** Play again the last move undone. */
  redo() {
    const move = this.undone.pop();
    if (!move) return;
    this.redoing = move;
    this.play(move);
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
    this.restartBox.hidden = true;
  }

  armRestart() {
    this.disarm();
    if (!ENDED.has(this.view.state)) {
      this.restartBox.hidden = false;
      this.restartBox.querySelector('button')?.focus();
    } else this.restart();
  }

  /** The same deal from the start, with the same options: a game still on is resigned first
   * (its key, once out, deals the same cards again). */
  async restart() {
    this.disarm();
    let view = this.view;
    if (!ENDED.has(view.state)) {
      try {
        view = (await this.app.conn.request({ type: 'resign', game: view.id, ply: view.ply })).game;
        this.adopt(view);
      } catch (err) {
        this.say(err.message || err.code);
        return;
      }
    }
    const href = restartHref(view);
    if (href) this.app.navigate(href);
    else this.say(t('restart.secret'));
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
      if (!this.hint) { this.say(t('hint.none'), 'info'); return; }
      this.board.showHint(this.hint);
      if (this.view.hints !== undefined) { // the server counted it: the counter says so now
        this.view = { ...this.view, hints: this.view.hints + 1 };
        this.drawStatus();
      }
      this.say(t('hint', adviceWords(this.hint, this.view.piles, this.variant)), 'hint');
    } catch (err) {
      if (err.code === 'hints_off') {
        this.hintsOff = true; // the server says so: the button says it from now on
        this.drawHintsOff();
        this.say(this.hintsOffWords());
      } else this.say(REFUSALS[err.code] ? t(REFUSALS[err.code]) : t('hint.failed', refusalWords(err.message, this.variant)));
    }
    announce(this.message.textContent);
  }

  /** A key on the board; true when it was the board's. */
  key(e) {
    const k = e.key;
    const ids = this.view.piles.map((p) => p.id);
    if (k === 'R') {
      if (this.resignArmed) this.play(RESIGN);
      else this.resign();
      return true;
    }
    if (this.resignArmed && k !== 'Shift') this.disarm();
    switch (k) {
      case ' ': this.board.drop(); this.play(DEAL); return true;
      case 'u': this.play(UNDO); return true;
      case 'a': this.play(AUTO); return true;
      case 'h': this.askHint(); return true;
      case 'Enter':
        if (this.hint) { const move = this.hint; this.hint = null; this.play(move); return true; }
        return false;
      case 'f':
        if (!this.board.sendPickHome()) this.say(t('pick.first'), 'info');
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
      if (pick) this.say(t('pick.now', pileName(pick.src, this.variant)), 'info');
      return true;
    }
    return false;
  }
}
