// The link to the server, opened before the page's other modules have run.
//
// index.html runs this module on its own (``async``), as soon as it and its four small imports
// are in: a returning player's browser (one that holds a token) opens the WebSocket and says
// hello at once, and on a new game's address (/play/VARIANT) sends ``start_game`` beside it (the
// page says each variant's options: the ``pc-options`` line), or else the moment the welcome
// names the variant. The server stores the game while the rest of the page (main.js, the
// game's modules) still arrives and runs, so the first board waits for the slower of the two,
// not for the one after the other. main.js takes this connection over (``early``) and the
// game's reply (``earlyGame``); without a token nothing is opened here (the name comes first).

import { Connection } from './connection.js';
import { AUTOPLAY, settings, store } from './store.js';

export function wsUrl() {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/** The ``start_game`` of a /play address: the variant (``info``, its VariantInfo), the options
 * the address names (``?OPTION=1|0``), else those home chose for it (autoplay: the settings'),
 * sent only where they differ from the variant's defaults; ``?seed=N``, ``?key=K``, ``?deal=``
 * a winnable deal of that difficulty. */
export function startRequest(info, query) {
  const request = { type: 'start_game', variant: info.id, options: {} };
  const saved = { ...store.options(info.id), [AUTOPLAY]: settings().autoplay };
  for (const [name, fallback] of Object.entries(info.options ?? {})) {
    const raw = query.get(name);
    const value = raw === null ? saved[name] ?? fallback : raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : Number(raw);
    if (value !== fallback) request.options[name] = value;
  }
  if (query.get('seed')) request.seed = Number(query.get('seed'));
  if (query.get('key')) request.key = query.get('key');
  const deal = query.get('deal');
  if (deal && deal !== 'any' && !request.seed && !request.key) {
    request.winnable = true;
    request.difficulty = deal;
  }
  return request;
}

/** The connection this module opened (null without a token), until main.js takes it over. */
let opened = null;
/** The game this page's address asked for: {path, request, reply} (reply a promise), or null. */
let asked = null;

/** This module's connection, once (a second call, or one for another player's credentials,
 * gets null: main.js then opens its own). */
export function early() {
  const conn = opened;
  opened = null;
  return conn;
}

/** The reply to the ``start_game`` sent for this page's address, when ``request`` is the one
 * sent on ``conn`` from that address (else null): taken once. */
export function earlyGame(conn, request) {
  const game = asked;
  if (!game || game.conn !== conn || game.path !== location.pathname + location.search) return null;
  asked = null;
  return JSON.stringify(game.request) === JSON.stringify(request) ? game.reply : null;
}

/** Each variant's options and their defaults, as the server wrote them into the page (the
 * ``pc-options`` line: server/net/static.py), or null. */
function pageOptions() {
  try { return JSON.parse(document.querySelector('meta[name="pc-options"]')?.content ?? 'null'); } catch { return null; }
}

function open(token) {
  const conn = new Connection(wsUrl(), () => (store.token ? { token: store.token } : { token }));
  const [, first, second] = location.pathname.split('/');
  const ask = (info, early) => {
    const request = startRequest(info, new URLSearchParams(location.search));
    asked = { conn, path: location.pathname + location.search, request, reply: conn.request(request, { early }) };
    // (a mark for bench/browser.py; main.js says why when it takes a refusal)
    asked.reply.then(() => performance.mark?.('pc-game'), () => {});
  };
  const variant = first === 'play' && second ? decodeURIComponent(second) : null;
  const options = variant ? pageOptions()?.[variant] : undefined;
  // the page names the variant's options: start_game goes beside hello, in the same round
  // trip; main.js takes its reply only if the welcome's VariantInfo makes the same request
  if (options) ask({ id: variant, options }, true);
  else if (variant) {
    conn.addEventListener('welcome', (e) => {
      if (e.detail.again || asked) return;
      const info = (e.detail.welcome.server?.variants ?? []).find((v) => v.id === variant);
      if (info) ask(info, false);
    });
  }
  // what main.js has to know of what happened before it listened
  conn.addEventListener('refused', (e) => { conn.refusal = e.detail; });
  conn.start();
  return conn;
}

performance.mark?.('pc-boot');
if (globalThis.location && store.token) opened = open(store.token);
