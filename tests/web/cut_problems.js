// What runs off the right edge of the window (an element not inside a box that scrolls or clips
// sideways), and form labels drawn over their fields. Run in the page by tests/web/test_screens.py.
() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  const clipped = (node) => {
    for (let p = node.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
    }
    return false;
  };
  for (const node of document.querySelectorAll('main *, header.top *, dialog[open] *')) {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(node).visibility === 'hidden') continue;
    if ((r.right > vw + 0.5 || r.left < -0.5) && !clipped(node)) {
      out.push(`${node.tagName.toLowerCase()}.${node.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  for (const label of document.querySelectorAll('label[for]')) {
    const field = document.getElementById(label.htmlFor);
    if (!field || field.closest('label') === label) continue;
    const a = label.getBoundingClientRect(), b = field.getBoundingClientRect();
    if (!a.width || !b.width) continue;
    const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    if (overlap) out.push(`label "${label.textContent}" over its field`);
  }
  return out;
}
