// What lies outside the window or offers less than 24x24 CSS px to a finger: every pile, and
// every face-up card of a column by the part of it no later card covers (WCAG 2.2 target
// size); and whether the page scrolls. Run in the page by tests/web/pages.py's fit_problems.
() => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  for (const board of document.querySelectorAll('.board')) {
    for (const pile of board.querySelectorAll('[data-pile]')) {
      const r = pile.getBoundingClientRect();
      const name = pile.dataset.pile;
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) out.push(`${name} outside the window`);
      if (r.width < 24 || r.height < 24) out.push(`${name} smaller than 24x24`);
      const cards = [...pile.querySelectorAll('[data-card]')];
      const boxes = cards.map((c) => c.getBoundingClientRect());
      const fanned = pile.className.includes('fan-down');
      boxes.forEach((b, i) => {
        if (b.left < -0.5 || b.top < -0.5 || b.right > vw + 0.5 || b.bottom > vh + 0.5) out.push(`${cards[i].dataset.card} in ${name} outside the window`);
        if (!fanned) return;
        const next = boxes[i + 1];
        const visible = next ? next.top - b.top : b.height;
        if (visible < 23.5 || b.width < 24) out.push(`${cards[i].dataset.card} in ${name} offers ${Math.round(visible)} px`);
      });
    }
  }
  if (document.documentElement.scrollHeight > vh + 1) out.push(`the page scrolls (${document.documentElement.scrollHeight} > ${vh})`);
  return out;
}
