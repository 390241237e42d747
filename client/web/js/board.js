// The board: piles drawn from a GameView, laid out to the room the page gives it (fit.js), and
// the picks and moves of the player (gestures.js turns the pointer into them; keys come from
// game.js).
//
// Contract for tests and tools: the board element carries data-state and data-ply of the last
// view the server sent (a move drawn before the server answers changes the cards, not these);
// each pile element carries data-pile (its id) and data-down (its face-down count); each face-up
// card element carries data-card, bottom to top inside its pile. After each drawing the board
// dispatches "pc-board" on document (detail: {ply, optimistic}).

import { cardGlyphs, cardName, faceDownName, isRed, pileLabel, rankText, suitSymbol } from './cards.js';
import { fitBoard } from './fit.js';
import { Flight, homeFlights } from './flight.js';
import { animationMs, maxCardWidth, settings } from './settings.js';
import { Gestures } from './gestures.js';
import { t } from './i18n.js';
import { GAP, boardLayout, keyLabel, mirrorRow, pileUnits, rightCapacity, RIGHT_STEP } from './layout.js';
import { ANY_FOUNDATION, DEAL, PLAYING, STOCK, formatMove, parseMove } from './notation.js';
import { chooseMove, countsFrom, destinations, stepCount } from './selection.js';

const reducedMotion = () => animationMs() === 0;
/** Pile keys are written above the piles where there is a keyboard (a fine pointer). */
const keysShown = () => !window.matchMedia?.('(hover: none) and (pointer: coarse)').matches;

function el(tag, className, attrs) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (attrs) for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** A face-up card: rank and suit in the corner, the suit large below. */
function faceCard(card) {
  const node = el('div', `card face ${isRed(card) ? 'red' : 'black'} suit-${card[1]}`, {
    'data-card': card, role: 'button', 'aria-label': cardName(card), tabindex: '-1', title: cardGlyphs(card),
  });
  const corner = el('span', 'corner', { 'aria-hidden': 'true' });
  const rank = el('span', 'rank');
  rank.textContent = rankText(card);
  const suit = el('span', 'suit');
  suit.textContent = suitSymbol(card);
  corner.append(rank, suit);
  const pip = el('span', 'pip', { 'aria-hidden': 'true' });
  pip.textContent = suitSymbol(card);
  node.append(corner, pip);
  return node;
}

function backCard() {
  return el('div', 'card back', { 'aria-hidden': 'true' });
}

export class Board {
  /**
   * ``options.variant``: the VariantInfo (for names); ``options.layout``: {rows, fan};
   * ``options.onAction(move)``: a move the player made (absent: a board to watch only);
   * ``options.onNotice(text)``: a short message for the player;
   * ``options.room()``: the height the board may take, in CSS px (absent: up to the window's
   * bottom from where the board is, less ``options.below()`` px kept under it);
   * ``options.steady()``: whether the board keeps the height of columns a usual game grows
   * (fit.js's ``tall``) even while they are shorter, so that what lies below it stays put.
   */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.view = null; // the server's last view
    this.piles = null; // what is drawn (the view's piles, or a move drawn ahead of the reply)
    this.pick = null; // {src, count (null: the largest legal group)}
    this.hintMove = null;
    this.cardW = 60;
    this.flight = null; // the cards flying home, while they fly (flight.js)
    root.classList.add('board');
    this.gestures = options.onAction ? new Gestures(this) : null;
    // drawn again when its width or the window changes (and once it is first on the page: the
    // size of a card comes from the room the board has)
    this.width = 0;
    const busy = () => this.gestures?.active;
    this.observer = new ResizeObserver(() => {
      if (this.root.clientWidth !== this.width && this.view && !busy()) this.draw();
    });
    this.observer.observe(root);
    this.resize = () => { if (this.view && !busy()) this.draw(); };
    window.addEventListener('resize', this.resize);
  }

  destroy() {
    this.flight?.stop();
    this.observer.disconnect();
    window.removeEventListener('resize', this.resize);
    this.gestures?.end();
  }

  get variant() {
    return this.options.variant ?? null;
  }

  get legal() {
    return this.view?.state === PLAYING ? this.view.legal ?? [] : [];
  }

  /** Draw the server's view; ``piles`` draws a move ahead of the server's answer. */
  show(view, piles = null) {
    this.view = view;
    this.piles = piles ?? view.piles;
    if (!piles) this.hintMove = null;
    this.pick = null;
    this.draw(true);
  }

  /** Draw ``view``, the cards it sent to the foundations flying there one after another (an
   * autocomplete, flight.js): aces first; none when moves do not animate. The board drawn now
   * stays while they leave it, and ``view`` is drawn once they have landed (then the promise
   * resolves with their number). */
  showHome(view) {
    if (this.flight) this.draw(false); // the last flight's end, drawn at once
    const ms = animationMs();
    const was = this.piles;
    this.view = view;
    this.piles = view.piles;
    this.hintMove = null;
    this.pick = null;
    const flights = ms ? homeFlights(this.root, this.piles, was) : [];
    if (!flights.length) {
      this.draw(false);
      return Promise.resolve(0);
    }
    this.flight = new Flight(this.root, flights, ms, faceCard, () => this.draw(false));
    return this.flight.start();
  }

  pileOf(id) {
    return this.piles?.find((p) => p.id === id) ?? null;
  }

  // -- drawing -------------------------------------------------------------------------------

  /** The room the board has: its width, and the height to the window's bottom. */
  room() {
    const root = this.root;
    this.width = root.clientWidth;
    const style = root.isConnected ? getComputedStyle(root) : null;
    const px = (name) => (style ? parseFloat(style[name]) || 0 : 0);
    const width = (this.width || document.documentElement.clientWidth || 800) - px('paddingLeft') - px('paddingRight');
    let height = this.options.room?.();
    if (height === undefined || height === null) {
      const top = root.isConnected ? root.getBoundingClientRect().top + window.scrollY : 0;
      height = window.innerHeight - top - 4 - (this.options.below?.() ?? 0);
    }
    const pads = px('paddingTop') + px('paddingBottom');
    height -= pads;
    return { width, height: Math.max(height, 120), pads };
  }

  draw(animate = false) {
    // a flight home ends when the board is drawn again (its last landing draws the view)
    this.flight?.stop();
    this.flight = null;
    // a board not yet on the page is drawn once it is (the observer above): the size of its
    // cards comes from the room it has there, and drawing it twice would delay the first board
    if (!this.root.isConnected) { this.width = 0; return; }
    const view = this.view;
    const layout = boardLayout(this.options.layout, this.piles.map((p) => p.id));
    const before = animate && !reducedMotion() && !this.dropped ? this.positions() : null;
    this.dropped = false;
    const labels = keysShown();
    const rowExtra = labels ? 18 : 6;
    const { width, height, pads } = this.room();
    const fit = fitBoard(layout, this.piles, width, height, rowExtra, maxCardWidth());
    this.root.style.minHeight = this.options.steady?.() ? `${Math.ceil(Math.min(fit.tall, height) + pads)}px` : '';
    const { w, h } = fit;
    this.cardW = w;
    const root = this.root;
    root.style.setProperty('--card-w', `${w}px`);
    root.style.setProperty('--card-h', `${h}px`);
    root.style.setProperty('--row-extra', `${rowExtra}px`);
    root.classList.toggle('with-keys', labels);
    root.dataset.state = view.state;
    root.dataset.ply = String(view.ply);
    root.dataset.variant = view.variant;
    // left-handed, the first row's piles change sides (both pieces of it when a narrow window
    // cut it in two, each keeping to its side: CSS) and the stock's line beside the columns
    // keeps the stock to the outer edge
    const mirror = settings().leftHanded;
    const first = fit.cut.includes(0) ? 2 : 1;
    const rows = fit.rows.map((row, i) => (mirror && !fit.side && i < first ? mirrorRow(row) : row));
    const side = fit.side?.map((row) => (mirror ? mirrorRow(row) : row));
    root.style.setProperty('--rows-w', `${Math.ceil(fit.across)}px`);
    const drawRows = (list, cut = []) => list.map((row, i) => {
      const rowEl = el('div', `row${cut.includes(i) ? ' lead' : ''}${cut.includes(i - 1) ? ' tail' : ''}`);
      for (const id of row) {
        if (id === GAP) rowEl.append(el('div', 'gap', { 'aria-hidden': 'true' }));
        else rowEl.append(this.drawPile(this.pileOf(id), layout.fan[id] ?? 'stack', w, h, fit.steps[id]));
      }
      return rowEl;
    });
    // the piles a short window sets beside the columns (fit.js) in a block of their own
    root.classList.toggle('sided', Boolean(fit.side));
    if (fit.side) root.replaceChildren(el('div', 'rows'), el('div', 'side'));
    if (fit.side) { root.firstChild.append(...drawRows(rows)); root.lastChild.append(...drawRows(side)); }
    else root.replaceChildren(...drawRows(rows, fit.cut));
    this.decorate();
    if (before) this.animateFrom(before);
    document.dispatchEvent(new CustomEvent('pc-board', { detail: { ply: view.ply, optimistic: this.piles !== view.piles } }));
  }

  drawPile(pile, fan, w, h, steps) {
    const empty = !pile.down && !pile.up.length;
    const node = el('div', `pile fan-${fan} kind-${pile.id[0]}${empty ? ' empty' : ''}`, {
      'data-pile': pile.id, 'data-down': String(pile.down), role: 'group',
      'aria-label': pileLabel(pile, this.variant),
    });
    const key = el('span', 'key', { 'aria-hidden': 'true' });
    key.textContent = keyLabel(pile.id);
    node.append(key);
    if (fan === 'stack') {
      const total = pile.down + pile.up.length;
      if (pile.up.length) node.append(faceCard(pile.up[pile.up.length - 1]));
      else if (pile.down) {
        const downs = el('div', 'downs', { role: 'img', 'aria-label': faceDownName(pile.down) });
        downs.append(backCard());
        node.append(downs);
      }
      if (total > 1) {
        const count = el('span', 'count', { 'aria-hidden': 'true' });
        count.textContent = String(total);
        node.append(count);
      }
      return node;
    }
    const downs = el('div', 'downs', { role: 'img', 'aria-label': faceDownName(pile.down) });
    const backs = [];
    for (let i = 0; i < pile.down; i++) backs.push(backCard());
    downs.append(...backs);
    if (pile.down) node.append(downs);
    const faces = pile.up.map(faceCard);
    node.append(...faces);
    const all = [...backs, ...faces];
    if (fan === 'right') {
      const capacity = Math.max(rightCapacity(pile.id), all.length);
      const span = w * (pileUnits(pile.id, { [pile.id]: 'right' }) - 1);
      const step = Math.min(w * RIGHT_STEP, all.length > 1 ? span / (capacity - 1) : w);
      all.forEach((c, i) => { c.style.left = `${Math.round(i * step)}px`; });
      node.style.width = `${Math.round(w + (capacity - 1) * step)}px`;
      return node;
    }
    const { down: downStep, up: upStep } = steps ?? { down: h * 0.1, up: h * 0.27 };
    let y = 0;
    backs.forEach((c) => { c.style.top = `${Math.round(y)}px`; y += downStep; });
    faces.forEach((c) => { c.style.top = `${Math.round(y)}px`; y += upStep; });
    const height = all.length ? y - (faces.length ? upStep : downStep) + h : h;
    node.style.height = `${Math.round(height)}px`;
    return node;
  }

  /** Picked cards, lit targets and the hint, on the drawn board. */
  decorate() {
    const root = this.root;
    root.querySelectorAll('.picked, .target, .hinted, .hint-target').forEach((n) => n.classList.remove('picked', 'target', 'hinted', 'hint-target'));
    root.querySelectorAll('[data-target]').forEach((n) => n.removeAttribute('data-target'));
    if (this.pick) {
      this.cardsOf(this.pick.src, this.pick.count ?? this.largestCount(this.pick.src)).forEach((c) => c.classList.add('picked'));
      this.light(destinations(this.legal, this.pick.src, this.pick.count));
    }
    if (this.hintMove) {
      const m = parseMove(this.hintMove);
      if (m) {
        this.cardsOf(m.src, m.count).forEach((c) => c.classList.add('hinted'));
        this.pileEl(m.dst)?.classList.add('hint-target');
      } else if (this.hintMove === DEAL) this.pileEl(STOCK)?.classList.add('hint-target');
    }
  }

  light(ids) {
    for (const id of ids) {
      const node = this.pileEl(id);
      if (node) { node.classList.add('target'); node.setAttribute('data-target', ''); }
    }
  }

  pileEl(id) {
    return this.root.querySelector(`[data-pile="${id}"]`);
  }

  cardsOf(pileId, count) {
    const cards = [...(this.pileEl(pileId)?.querySelectorAll('[data-card]') ?? [])];
    return count ? cards.slice(Math.max(cards.length - count, 0)) : [];
  }

  largestCount(src) {
    return this.pileOf(src) ? Math.max(1, ...countsFrom(this.legal, src)) : 1;
  }

  positions() {
    const seen = new Map();
    const out = new Map();
    for (const node of this.root.querySelectorAll('[data-card]')) {
      const card = node.dataset.card;
      const n = seen.get(card) ?? 0;
      seen.set(card, n + 1);
      out.set(`${card}/${n}`, node.getBoundingClientRect());
    }
    return out;
  }

  animateFrom(before) {
    const seen = new Map();
    for (const node of this.root.querySelectorAll('[data-card]')) {
      const card = node.dataset.card;
      const n = seen.get(card) ?? 0;
      seen.set(card, n + 1);
      const old = before.get(`${card}/${n}`);
      if (!old) continue;
      const now = node.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      node.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], { duration: animationMs(), easing: 'ease-out' });
    }
  }

  // -- picking, from the keyboard or a tap ---------------------------------------------------

  /** A pile key: the first picks the source, the second the destination. */
  keyPile(id) {
    const pile = this.pileOf(id);
    if (!pile) return;
    if (id === STOCK && !this.pick) { this.act(DEAL); return; }
    if (!this.pick) {
      if (!pile.up.length) { this.notice(t('pick.nothing', pileLabel(pile, this.variant))); return; }
      this.pick = { src: id, count: null };
      this.decorate();
      return;
    }
    if (this.pick.src === id) { this.drop(); return; }
    this.moveTo(id);
  }

  /** + / -: more or fewer cards in the picked group. */
  stepPick(step) {
    if (!this.pick) return;
    const pile = this.pileOf(this.pick.src);
    const current = this.pick.count ?? this.largestCount(this.pick.src);
    this.pick.count = stepCount(this.legal, this.pick.src, current, step, pile.up.length);
    this.decorate();
  }

  /** f: the picked card to whichever foundation takes it. */
  sendPickHome() {
    if (!this.pick) return false;
    this.act(formatMove(this.pick.src, 1, ANY_FOUNDATION));
    return true;
  }

  drop() {
    const had = this.pick !== null;
    this.pick = null;
    this.decorate();
    return had;
  }

  moveTo(dst) {
    const { src, count } = this.pick;
    this.pick = null;
    this.act(chooseMove(this.legal, src, dst, count));
  }

  showHint(move) {
    this.hintMove = move;
    this.decorate();
  }

  act(move) {
    this.decorate();
    this.options.onAction?.(move);
  }

  notice(text) {
    this.options.onNotice?.(text);
  }
}
