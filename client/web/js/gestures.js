// The player's pointer on a board (pointer events: mouse, pen, touch): drag a card onto a pile;
// tap or click a card, then the destination pile; tap the stock to deal; double-click or
// double-tap a top card to send it to a foundation. The board draws; this turns gestures into
// its picks and moves.

import { ANY_FOUNDATION, DEAL, PLAYING, STOCK, STUCK, formatMove } from './notation.js';
import { destinations } from './selection.js';

const DRAG_THRESHOLD_PX = 6;
const DOUBLE_TAP_MS = 400;

export class Gestures {
  constructor(board) {
    this.board = board;
    this.gesture = null;
    this.lastTap = null;
    board.root.addEventListener('pointerdown', (e) => this.pointerDown(e));
    board.root.addEventListener('contextmenu', (e) => { if (this.gesture) e.preventDefault(); });
  }

  get active() {
    return this.gesture !== null;
  }

  pointerDown(e) {
    const board = this.board;
    if (e.button !== undefined && e.button !== 0) return;
    const pileNode = e.target.closest('[data-pile]');
    if (!pileNode || !board.root.contains(pileNode)) return;
    const cardNode = e.target.closest('[data-card]');
    const id = pileNode.dataset.pile;
    const cards = [...pileNode.querySelectorAll('[data-card]')];
    const index = cardNode ? cards.indexOf(cardNode) : -1;
    // in a squared pile only the top card is drawn: it stands for the top of the pile
    const count = index >= 0 ? cards.length - index : 0;
    this.gesture = { id, count, x: e.clientX, y: e.clientY, pointerId: e.pointerId, dragging: false };
    this.onMove = (ev) => this.pointerMove(ev);
    this.onUp = (ev) => this.pointerUp(ev);
    this.onCancel = () => this.cancel();
    window.addEventListener('pointermove', this.onMove);
    window.addEventListener('pointerup', this.onUp);
    window.addEventListener('pointercancel', this.onCancel);
    if (count && board.view.state === PLAYING) e.preventDefault();
  }

  pointerMove(e) {
    const g = this.gesture;
    if (!g || e.pointerId !== g.pointerId) return;
    if (!g.dragging) {
      if (!g.count || this.board.view.state !== PLAYING) return;
      if (Math.hypot(e.clientX - g.x, e.clientY - g.y) < DRAG_THRESHOLD_PX) return;
      this.startDrag(g);
    }
    g.ghost.style.transform = `translate(${e.clientX - g.x}px, ${e.clientY - g.y}px)`;
    e.preventDefault();
  }

  startDrag(g) {
    const board = this.board;
    g.dragging = true;
    board.pick = null;
    board.hintMove = null;
    board.decorate();
    const ghost = document.createElement('div');
    ghost.className = 'ghost';
    ghost.setAttribute('aria-hidden', 'true');
    for (const card of board.cardsOf(g.id, g.count)) {
      const r = card.getBoundingClientRect();
      const copy = card.cloneNode(true);
      copy.removeAttribute('data-card');
      copy.style.left = `${r.left}px`;
      copy.style.top = `${r.top}px`;
      ghost.append(copy);
      card.classList.add('lifted');
    }
    ghost.style.setProperty('--card-w', board.root.style.getPropertyValue('--card-w'));
    ghost.style.setProperty('--card-h', board.root.style.getPropertyValue('--card-h'));
    document.body.append(ghost);
    g.ghost = ghost;
    board.light(destinations(board.legal, g.id, g.count));
  }

  pointerUp(e) {
    const g = this.gesture;
    if (!g || e.pointerId !== g.pointerId) return;
    const board = this.board;
    this.end();
    if (g.dragging) {
      const under = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-pile]');
      const dst = under && board.root.contains(under) ? under.dataset.pile : null;
      if (dst && dst !== g.id) {
        board.dropped = true;
        board.act(formatMove(g.id, g.count, dst));
      } else board.draw();
      return;
    }
    this.tap(g);
  }

  cancel() {
    const g = this.gesture;
    this.end();
    if (g?.dragging) this.board.draw();
  }

  end() {
    if (this.gesture?.ghost) this.gesture.ghost.remove();
    this.gesture = null;
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    window.removeEventListener('pointercancel', this.onCancel);
  }

  tap(g) {
    const board = this.board;
    const now = performance.now();
    const previous = this.lastTap;
    this.lastTap = { id: g.id, at: now, count: g.count };
    if (board.view.state !== PLAYING && board.view.state !== STUCK) return;
    const double = previous && previous.id === g.id && now - previous.at < DOUBLE_TAP_MS && g.count === 1 && previous.count === 1;
    if (double) {
      this.lastTap = null;
      board.pick = null;
      board.act(formatMove(g.id, 1, ANY_FOUNDATION));
      return;
    }
    if (g.id === STOCK) { board.pick = null; board.act(DEAL); return; }
    if (board.pick) {
      if (board.pick.src === g.id) { board.drop(); return; }
      const targets = destinations(board.legal, board.pick.src, board.pick.count);
      if (!targets.has(g.id) && g.count && destinations(board.legal, g.id, g.count).size) {
        board.pick = { src: g.id, count: g.count }; // another card to move, not a destination
        board.decorate();
        return;
      }
      board.moveTo(g.id);
      return;
    }
    if (g.count) {
      board.pick = { src: g.id, count: g.count };
      board.decorate();
    }
  }
}
