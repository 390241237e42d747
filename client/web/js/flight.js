// An autocomplete's flight home: every card the server's view has on a foundation and the board
// still shows elsewhere flies there, aces first, one after another (board.js's showHome).
//
// Made so that no frame is long, even for a whole deck (60 frames a second and no task over
// 50 ms for 52 cards, bench/browser.py): where each card lies and where it goes are read once,
// together, before anything is written (one layout, of the board already drawn); that board
// stays while the cards leave it, and a card's flying copy is made only when its turn comes (a
// card or two a frame, not 52 elements and 52 animations in one task); each copy moves by a
// transform (Web Animations: no layout while it flies); the board is drawn as the view says
// once, when the last card has landed.

import { pileKind } from './notation.js';

const RANKS = 'A23456789TJQK';

/** The flights from the board drawn in ``root`` to the foundations of ``piles`` (which had
 * ``was``), aces first: each card's element where it lies, and its way home in the board's
 * box. Reads the layout; writes nothing. */
export function homeFlights(root, piles, was) {
  if (!root.isConnected) return [];
  const origin = root.getBoundingClientRect();
  const lying = new Map(); // card -> its elements off the foundations, in drawing order
  for (const node of root.querySelectorAll('[data-pile] [data-card]')) {
    if (pileKind(node.closest('[data-pile]').dataset.pile) === 'f') continue;
    const card = node.dataset.card;
    if (!lying.has(card)) lying.set(card, []);
    lying.get(card).push(node);
  }
  const flights = [];
  for (const pile of piles) {
    if (pileKind(pile.id) !== 'f') continue;
    const old = was?.find((p) => p.id === pile.id)?.up.length ?? 0;
    const to = root.querySelector(`[data-pile="${pile.id}"]`)?.getBoundingClientRect();
    if (!to) continue;
    for (const card of pile.up.slice(old)) {
      const node = lying.get(card)?.shift();
      if (!node) continue;
      const from = node.getBoundingClientRect();
      flights.push({
        card, node, left: to.left - origin.left, top: to.top - origin.top, dx: from.left - to.left, dy: from.top - to.top,
      });
    }
  }
  return flights.sort((a, b) => RANKS.indexOf(a.card[0]) - RANKS.indexOf(b.card[0]));
}

/** One flight under way: ``start()`` sends the cards off, ``stop()`` ends it early (the board
 * drawn again meanwhile); ``landed`` resolves with the number of cards once it is over. */
export class Flight {
  /**
   * ``root``: the board's element; ``flights``: homeFlights's; ``ms``: a move's animation time
   * (a card flies twice that; the next leaves a fifth of it later); ``makeCard(card)``: a
   * card's element; ``onLanded()``: called once, when the last card has landed.
   */
  constructor(root, flights, ms, makeCard, onLanded) {
    this.root = root;
    this.flights = flights;
    this.stagger = Math.max(12, Math.round(ms / 5));
    this.duration = Math.round(ms * 2);
    this.makeCard = makeCard;
    this.onLanded = onLanded;
    this.next = 0;
    this.down = 0;
    this.frame = 0;
    this.animations = [];
    this.copies = [];
    this.over = false;
    this.landed = new Promise((resolve) => { this.resolve = resolve; });
  }

  start() {
    const begun = performance.now();
    const tick = (now) => {
      if (this.over) return;
      // every card whose turn has come leaves: its drawn self hidden, a copy flying from there
      const due = Math.max(now, performance.now()) - begun;
      while (this.next < this.flights.length && this.next * this.stagger <= due) this.launch(this.flights[this.next++]);
      if (this.next < this.flights.length) this.frame = requestAnimationFrame(tick);
    };
    tick(begun);
    return this.landed;
  }

  launch(f) {
    const node = this.makeCard(f.card);
    node.classList.add('flying');
    node.removeAttribute('role');
    node.removeAttribute('tabindex');
    node.setAttribute('aria-hidden', 'true');
    node.style.left = `${f.left}px`;
    node.style.top = `${f.top}px`;
    f.node.style.visibility = 'hidden';
    this.root.append(node);
    this.copies.push(node);
    const done = () => {
      this.down += 1;
      if (this.down === this.flights.length && !this.over) this.onLanded();
    };
    const animation = node.animate?.([{ transform: `translate(${f.dx}px, ${f.dy}px)` }, { transform: 'none' }],
      { duration: this.duration, easing: 'ease-in-out' });
    if (!animation) { done(); return; }
    animation.onfinish = done;
    this.animations.push(animation);
  }

  /** Over: no more card leaves, the copies go (the board is drawn again next, by the caller). */
  stop() {
    if (this.over) return;
    this.over = true;
    cancelAnimationFrame(this.frame);
    for (const animation of this.animations) { animation.onfinish = null; animation.cancel(); }
    for (const node of this.copies) node.remove();
    document.dispatchEvent(new CustomEvent('pc-home', { detail: { cards: this.flights.length } }));
    this.resolve(this.flights.length);
  }
}
