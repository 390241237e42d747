// Charts drawn from the server's data as SVG (no library): a line of values over time, in the
// page's own colours (so dark mode follows), with the same figures as a table behind it for a
// screen reader and for anyone who wants the numbers.

import { t } from './i18n.js';
import { h } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.append(child instanceof Node ? child : String(child));
  return node;
}

/** A day as the page shows it: 2026-12-05. */
export function dayText(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * A line chart of ``points`` ({x: ms, y: number}, oldest first) with its table: a <figure>
 * holding the SVG (an image named by ``title`` and a one-line summary) and a <details> with
 * every point as a row. ``columns`` names the table's two columns.
 */
export function lineChart(points, { title, summary, columns, id }) {
  const width = 600;
  const height = 200;
  const pad = { left: 60, right: 14, top: 14, bottom: 34 };
  const ys = points.map((p) => p.y);
  let low = Math.min(...ys);
  let high = Math.max(...ys);
  if (high - low < 20) { low -= 10; high += 10; }
  const xs = points.map((p) => p.x);
  const first = Math.min(...xs);
  const last = Math.max(...xs);
  const x = (v) => (last === first ? (pad.left + width - pad.right) / 2 : pad.left + ((v - first) / (last - first)) * (width - pad.left - pad.right));
  const y = (v) => pad.top + (1 - (v - low) / (high - low)) * (height - pad.top - pad.bottom);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(' ');
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-labelledby': `${titleId} ${descId}`, preserveAspectRatio: 'xMidYMid meet' },
    s('title', { id: titleId }, title),
    s('desc', { id: descId }, summary),
    // the frame and the two levels marked on the left
    s('line', { x1: pad.left, y1: y(high), x2: width - pad.right, y2: y(high), class: 'grid' }),
    s('line', { x1: pad.left, y1: y(low), x2: width - pad.right, y2: y(low), class: 'grid' }),
    s('text', { x: pad.left - 6, y: y(high) + 4, 'text-anchor': 'end', class: 'axis' }, String(Math.round(high))),
    s('text', { x: pad.left - 6, y: y(low) + 4, 'text-anchor': 'end', class: 'axis' }, String(Math.round(low))),
    s('text', { x: pad.left, y: height - 10, class: 'axis' }, dayText(first)),
    s('text', { x: width - pad.right, y: height - 10, 'text-anchor': 'end', class: 'axis' }, dayText(last)),
    s('path', { d: path, class: 'line', fill: 'none' }),
    ...points.map((p) => s('circle', { cx: x(p.x).toFixed(1), cy: y(p.y).toFixed(1), r: 3, class: 'dot' })));
  const table = h('table', { class: 'chart-table' },
    h('caption', {}, title),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, points.map((p) => h('tr', {}, h('td', {}, dayText(p.x)), h('td', {}, p.label ?? String(p.y))))));
  return h('figure', { class: 'chart-box' },
    svg,
    h('figcaption', {}, summary),
    h('details', { class: 'chart-data' }, h('summary', {}, t('chart.figures')), table));
}
