// Small DOM helpers: elements built from data (text always as text, never as markup), times and
// the page's live region.

import { t } from './i18n.js';

/**
 * ``h('button', {class: 'x', onclick: f}, 'Deal')``: an element; attributes whose name starts
 * with "on" become listeners, ``dataset`` and ``style`` maps are applied, children may be
 * strings, nodes, null or arrays of them.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** 192034 -> "3:12"; an hour or more: "1:03:12". */
export function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  return hours ? `${hours}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A game's state in words, in the page's language ("out of time" for timeout). */
export function stateWords(state) {
  const words = t(`state.${state}`);
  return words === `state.${state}` ? state : words;
}

let liveRegion = null;

/** Say ``text`` in the page's live region (read out by screen readers, shown to no one). */
export function announce(text) {
  liveRegion ??= document.getElementById('live');
  if (!liveRegion) return;
  const line = h('p', {}, text);
  liveRegion.append(line);
  while (liveRegion.childElementCount > 3) liveRegion.firstElementChild.remove();
}

/** Put ``text`` on the clipboard; true when the browser let us. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// -- seasons and profiles ----------------------------------------------------------------------

/** A player's name as a link to their profile (/player/NAME). */
export function playerLink(name) {
  return h('a', { href: `/player/${encodeURIComponent(name)}`, 'data-link': '', class: 'player' }, name);
}
