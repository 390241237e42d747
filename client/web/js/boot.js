// The link to the server, opened before the page's other modules have run.
//
// index.html runs this module on its own (``async``), as soon as it and its four small imports
// are in: a returning player's browser (one that holds a token) opens the WebSocket and says
// hello at once, and on a new game's address (/play/VARIANT) sends ``start_game`` the moment
// the welcome names the variant. The server stores the game while the rest of the page (main.js,
// the game's modules) still arrives and runs, so the first board waits for the slower of the
// two, not for the one after the other. main.js takes this connection over (``early``) and the
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

function open(token) {
  const conn = new Connection(wsUrl(), () => (store.token ? { token: store.token } : { token }));
  const [, first, second] = location.pathname.split('/');
  if (first === 'play' && second) {
    const path = location.pathname + location.search;
    conn.addEventListener('welcome', (e) => {
      if (e.detail.again || asked) return;
      const variant = decodeURIComponent(second);
      const info = (e.detail.welcome.server?.variants ?? []).find((v) => v.id === variant);
      if (!info) return;
      const request = startRequest(info, new URLSearchParams(location.search));
      asked = { conn, path, request, reply: conn.request(request) };
      asked.reply.catch(() => {}); // main.js says why when it takes it; nobody else waits
    });
  }
  // what main.js has to know of what happened before it listened
  conn.addEventListener('refused', (e) => { conn.refusal = e.detail; });
  conn.start();
  return conn;
}

performance.mark?.('pc-boot');
if (globalThis.location && store.token) opened = open(store.token);
