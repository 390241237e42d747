// The board: piles drawn from a GameView, and the player's gestures turned into moves.
//
// Contract for tests and tools: the board element carries data-state and data-ply of the last
// view the server sent (a move drawn before the server answers changes the cards, not these);
// each pile element carries data-pile (its id) and data-down (its face-down count); each face-up
// card element carries data-card, bottom to top inside its pile. After each drawing the board
// dispatches "pc-board" on document (detail: {ply, optimistic}).
//
// Gestures: drag a card (pointer events: mouse, pen, touch) onto a pile; or tap/click a card,
// then the destination pile; tap the stock to deal; double-click or double-tap a top card to
// send it to a foundation (X>f). While a card is held, the piles the legal list allows light up.

import { cardName, faceDownName, isRed, pileLabel, rankText, suitSymbol } from './cards.js';
import { GAP, boardLayout, keyLabel, pileUnits, rightCapacity, rowUnits, RIGHT_STEP } from './layout.js';
import { destinations, formatMove, stepCount } from './selection.js';

const DRAG_THRESHOLD_PX = 6;
const DOUBLE_TAP_MS = 400;
const MAX_CARD_W = 92;
const MIN_CARD_W = 26;
const ANIMATION_MS = 140;
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

function el(tag, className, attrs) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (attrs) for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** A face-up card: rank and suit in the corner, the suit large below. */
function faceCard(card) {
  const node = el('div', `card face ${isRed(card) ? 'red' : 'black'}`, {
    'data-card': card, role: 'button', 'aria-label': cardName(card), tabindex: '-1',
  });
  const corner = el('span', 'corner', { 'aria-hidden': 'true' });
  corner.textContent = rankText(card) + suitSymbol(card);
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
   * ``options.onNotice(text)``: a short message for the player.
   */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.view = null; // the server's last view
    this.piles = null; // what is drawn (the view's piles, or a move drawn ahead of the reply)
    this.pick = null; // {src, count (null: the largest legal group)}
    this.hintMove = null;
    this.gesture = null;
    this.lastTap = null;
    this.cardW = 60;
    root.classList.add('board');
    if (options.onAction) {
      root.addEventListener('pointerdown', (e) => this.pointerDown(e));
      root.addEventListener('contextmenu', (e) => { if (this.gesture) e.preventDefault(); });
    }
    // drawn again when its width changes (and once it is first on the page: the size of a card
    // comes from the width the board has)
    this.width = 0;
    this.observer = new ResizeObserver(() => {
      const width = this.root.clientWidth;
      if (width !== this.width && this.view && !this.gesture) this.draw();
    });
    this.observer.observe(root);
    this.resize = () => { if (this.view && !this.gesture) this.draw(); };
    window.addEventListener('resize', this.resize);
  }

  destroy() {
    this.observer.disconnect();
    window.removeEventListener('resize', this.resize);
    this.endGesture();
  }

  get variantId() {
    return this.options.variant?.id;
  }

  get legal() {
    return this.view?.state === 'playing' ? this.view.legal ?? [] : [];
  }

  /** Draw the server's view; ``piles`` draws a move ahead of the server's answer. */
  show(view, piles = null) {
    this.view = view;
    this.piles = piles ?? view.piles;
    if (!piles) this.hintMove = null;
    this.pick = null;
    this.draw(true);
  }

  pileOf(id) {
    return this.piles?.find((p) => p.id === id) ?? null;
  }

  // -- drawing -------------------------------------------------------------------------------

  measure(layout) {
    this.width = this.root.clientWidth;
    const style = this.root.isConnected ? getComputedStyle(this.root) : null;
    const padding = style ? parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) : 0;
    const width = (this.width || document.documentElement.clientWidth || 800) - padding;
    const units = Math.max(...layout.rows.map((row) => rowUnits(row, layout.fan) + 0.14 * row.length), 1);
    const byWidth = Math.floor(width / units);
    // and the rows fit the window's height below the board's top: a row of squared piles is a
    // card high, a row with a tableau about two and a half
    const top = this.root.isConnected ? this.root.getBoundingClientRect().top + window.scrollY : 0;
    const room = window.innerHeight - Math.min(top, window.innerHeight * 0.4) - 16;
    const high = layout.rows.reduce((n, row) => n + (row.some((id) => layout.fan[id] === 'down') ? 2.5 : 1) * 1.4 + 0.3, 0);
    const byHeight = Math.floor(room / high);
    this.cardW = Math.max(MIN_CARD_W, Math.min(MAX_CARD_W, byWidth, byHeight));
    return this.cardW;
  }

  draw(animate = false) {
    const view = this.view;
    const layout = boardLayout(this.options.layout, this.piles.map((p) => p.id));
    const before = animate && !reducedMotion() && !this.dropped ? this.positions() : null;
    this.dropped = false;
    const w = this.measure(layout);
    const h = Math.round(w * 1.4);
    const root = this.root;
    root.style.setProperty('--card-w', `${w}px`);
    root.style.setProperty('--card-h', `${h}px`);
    root.dataset.state = view.state;
    root.dataset.ply = String(view.ply);
    root.dataset.variant = view.variant;
    const rows = [];
    const maxDown = Math.max(h * 3, window.innerHeight * 0.62);
    for (const row of layout.rows) {
      const rowEl = el('div', 'row');
      for (const id of row) {
        if (id === GAP) {
          rowEl.append(el('div', 'gap', { 'aria-hidden': 'true' }));
          continue;
        }
        rowEl.append(this.drawPile(this.pileOf(id), layout.fan[id] ?? 'stack', w, h, maxDown));
      }
      rows.push(rowEl);
    }
    root.replaceChildren(...rows);
    this.decorate();
    if (before) this.animateFrom(before);
    document.dispatchEvent(new CustomEvent('pc-board', { detail: { ply: view.ply, optimistic: this.piles !== view.piles } }));
  }

  drawPile(pile, fan, w, h, maxDown) {
    const empty = !pile.down && !pile.up.length;
    const node = el('div', `pile fan-${fan} kind-${pile.id[0]}${empty ? ' empty' : ''}`, {
      'data-pile': pile.id, 'data-down': String(pile.down), role: 'group',
      'aria-label': pileLabel(pile, this.variantId),
    });
    const key = el('span', 'key', { 'aria-hidden': 'true' });
    key.textContent = keyLabel(pile.id);
    node.append(key);
    const cards = [];
    if (fan === 'stack') {
      if (pile.up.length) cards.push(faceCard(pile.up[pile.up.length - 1]));
      else if (pile.down) cards.push(backCard());
      const total = pile.down + pile.up.length;
      if (pile.down && !pile.up.length) {
        const downs = el('div', 'downs', { role: 'img', 'aria-label': faceDownName(pile.down) });
        downs.append(...cards);
        node.append(downs);
      } else node.append(...cards);
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
      const step = Math.min(w * RIGHT_STEP, all.length > 1 ? (w * (pileUnits(pile.id, { [pile.id]: 'right' }) - 1)) / (capacity - 1) : w);
      all.forEach((c, i) => { c.style.left = `${Math.round(i * step)}px`; });
      node.style.width = `${Math.round(w + (capacity - 1) * step)}px`;
      return node;
    }
    // down: face-down cards close together, face-up ones spread enough to read their corner
    let downStep = h * 0.1;
    let upStep = h * 0.27;
    const natural = h + downStep * pile.down + upStep * Math.max(pile.up.length - 1, 0);
    if (natural > maxDown && all.length > 1) {
      const scale = (maxDown - h) / (natural - h);
      downStep *= scale;
      upStep = Math.max(upStep * scale, h * 0.16);
    }
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
      const m = /^([a-z]\d?)(?::(\d+))?>([a-z]\d?)$/.exec(this.hintMove);
      if (m) {
        this.cardsOf(m[1], Number(m[2] || 1)).forEach((c) => c.classList.add('hinted'));
        this.pileEl(m[3])?.classList.add('hint-target');
      } else if (this.hintMove === 'deal') this.pileEl('s')?.classList.add('hint-target');
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
    const pile = this.pileOf(src);
    return pile ? Math.max(1, ...[...this.legal].map((m) => /^([a-z]\d?)(?::(\d+))?>/.exec(m)).filter((m) => m && m[1] === src).map((m) => Number(m[2] || 1))) : 1;
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
      node.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], { duration: ANIMATION_MS, easing: 'ease-out' });
    }
  }

  // -- picking, from the keyboard or a tap ---------------------------------------------------

  /** A pile key: the first picks the source, the second the destination. */
  keyPile(id) {
    const pile = this.pileOf(id);
    if (!pile) return;
    if (id === 's' && !this.pick) { this.act('deal'); return; }
    if (!this.pick) {
      if (!pile.up.length) { this.notice(`nothing to pick on ${pileLabel(pile, this.variantId)}`); return; }
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

  /** f: the picked card (or the hinted source) to whichever foundation takes it. */
  sendPickHome() {
    if (!this.pick) return false;
    const src = this.pick.src;
    this.act(`${src}>f`);
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
    const n = count ?? this.countFor(src, dst);
    this.act(formatMove(src, n, dst));
  }

  countFor(src, dst) {
    const sizes = this.legal.map((m) => /^([a-z]\d?)(?::(\d+))?>([a-z]\d?)$/.exec(m)).filter((m) => m && m[1] === src && m[3] === dst).map((m) => Number(m[2] || 1));
    return sizes.length ? Math.max(...sizes) : 1;
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

  // -- pointer gestures ----------------------------------------------------------------------

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const pileNode = e.target.closest('[data-pile]');
    if (!pileNode || !this.root.contains(pileNode)) return;
    const cardNode = e.target.closest('[data-card]');
    const id = pileNode.dataset.pile;
    const cards = [...pileNode.querySelectorAll('[data-card]')];
    const index = cardNode ? cards.indexOf(cardNode) : -1;
    const pile = this.pileOf(id);
    // in a squared pile only the top card is drawn: it stands for the top of the pile
    const count = index >= 0 ? cards.length - index : 0;
    this.gesture = { id, count, pile, x: e.clientX, y: e.clientY, pointerId: e.pointerId, dragging: false, cardNode };
    this.onMove = (ev) => this.pointerMove(ev);
    this.onUp = (ev) => this.pointerUp(ev);
    this.onCancel = () => this.cancelGesture();
    window.addEventListener('pointermove', this.onMove);
    window.addEventListener('pointerup', this.onUp);
    window.addEventListener('pointercancel', this.onCancel);
    if (count && this.view.state === 'playing') e.preventDefault();
  }

  pointerMove(e) {
    const g = this.gesture;
    if (!g || e.pointerId !== g.pointerId) return;
    if (!g.dragging) {
      if (!g.count || this.view.state !== 'playing') return;
      if (Math.hypot(e.clientX - g.x, e.clientY - g.y) < DRAG_THRESHOLD_PX) return;
      this.startDrag(g);
    }
    g.ghost.style.transform = `translate(${e.clientX - g.x}px, ${e.clientY - g.y}px)`;
    e.preventDefault();
  }

  startDrag(g) {
    g.dragging = true;
    this.pick = null;
    this.hintMove = null;
    this.decorate();
    const lifted = this.cardsOf(g.id, g.count);
    const ghost = el('div', 'ghost', { 'aria-hidden': 'true' });
    for (const card of lifted) {
      const r = card.getBoundingClientRect();
      const copy = card.cloneNode(true);
      copy.removeAttribute('data-card');
      copy.style.left = `${r.left}px`;
      copy.style.top = `${r.top}px`;
      ghost.append(copy);
      card.classList.add('lifted');
    }
    document.body.append(ghost);
    g.ghost = ghost;
    this.light(destinations(this.legal, g.id, g.count));
  }

  pointerUp(e) {
    const g = this.gesture;
    if (!g || e.pointerId !== g.pointerId) return;
    this.endGesture();
    if (g.dragging) {
      const under = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-pile]');
      const dst = under && this.root.contains(under) ? under.dataset.pile : null;
      if (dst && dst !== g.id) {
        this.dropped = true;
        this.act(formatMove(g.id, g.count, dst));
      } else this.draw();
      return;
    }
    this.tap(g);
  }

  cancelGesture() {
    const g = this.gesture;
    this.endGesture();
    if (g?.dragging) this.draw();
  }

  endGesture() {
    if (this.gesture?.ghost) this.gesture.ghost.remove();
    this.gesture = null;
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    window.removeEventListener('pointercancel', this.onCancel);
  }

  tap(g) {
    const now = performance.now();
    const previous = this.lastTap;
    this.lastTap = { id: g.id, at: now, count: g.count };
    if (this.view.state !== 'playing' && this.view.state !== 'stuck') return;
    const double = previous && previous.id === g.id && now - previous.at < DOUBLE_TAP_MS && g.count === 1 && previous.count === 1;
    if (double) {
      this.lastTap = null;
      this.pick = null;
      this.act(`${g.id}>f`);
      return;
    }
    if (g.id === 's') { this.pick = null; this.act('deal'); return; }
    if (this.pick) {
      if (this.pick.src === g.id) { this.drop(); return; }
      const targets = destinations(this.legal, this.pick.src, this.pick.count);
      if (!targets.has(g.id) && g.count && destinations(this.legal, g.id, g.count).size) {
        this.pick = { src: g.id, count: g.count }; // another card to move, not a destination
        this.decorate();
        return;
      }
      this.moveTo(g.id);
      return;
    }
    if (g.count) {
      this.pick = { src: g.id, count: g.count };
      this.decorate();
    }
  }
}
