// The app: the account, the connection, and the screen each address shows.
//
//   /                  home: the games, dailies, races, your games and statistics
//   /play/VARIANT      a new game (?seed=N a numbered deal, ?key=K a keyed one, ?OPTION=1|0)
//   /daily/VARIANT     today's deal: the ranked attempt, then practice; its leaderboard
//   /leaderboard/VARIANT  a daily leaderboard (?date=YYYY-MM-DD)
//   /race/CODE         that room (?as=spectator to watch)
//   /game/ID           one of the player's own games, resumed
//   /replay/ID         a finished game, move by move (?step=N at that move)
//   /arenas            the arenas: join one, create a private one
//   /arena/CODE        one arena: its standings, your deal, its final table
//   /challenge/ID      a challenge: a friend's game to play on the same deal, its result
//   /boards            the season boards (?period=week|month|all|rating&variant=ID)
//   /player/NAME       a player's profile
//   /daily/VARIANT?date=YYYY-MM-DD   a past day's deal, unranked (the archive)

//
// Each screen's module is imported when its address is first shown, not before the page runs:
// the connection opens as soon as this module's own few imports are in, while the screen's
// modules still arrive (the server lists them in the page as modulepreload lines,
// server/net/preload.py, so they are all asked for at once); a game's page waits for neither
// home's modules nor a replay's.

import { early, earlyGame, startRequest, wsUrl } from './boot.js';
import { Connection } from './connection.js';
import { decode, encode } from './msgpack.js';
import { LANGUAGES, language, setLanguage, t } from './i18n.js';
import { applySettings, openSettings } from './settings.js';
import { store } from './store.js';
import { h } from './ui.js';

const main = document.getElementById('main');
const statusEl = document.getElementById('link-status');
const whoEl = document.getElementById('who');
/** What the header says of the link: '' (nothing), 'connecting', or the connection's last
 * status ({ online, retryInMs }); kept so that a change of language says it again. */
let link = '';

function showLink(state) {
  link = state;
  if (state === '') statusEl.textContent = '';
  else if (state === 'connecting') statusEl.textContent = t('link.connecting');
  else statusEl.textContent = state.online ? t('link.online') : t('link.offline', Math.ceil(state.retryInMs / 1000));
}

export const app = {
  conn: null,
  player: null,
  server: null,
  variants: new Map(),
  screen: null,
  navigate,
  show,
  say,
};

function say(text) {
  const line = h('p', { class: 'notice', role: 'alert' }, text);
  main.prepend(line);
}

function show(screen) {
  app.screen?.destroy?.();
  app.screen = screen;
  main.replaceChildren(screen.element);
}

// -- account ---------------------------------------------------------------------------------

/** On a first visit to a race's link, what the link is, before the name is asked. */
function invitation() {
  const [, first, code] = location.pathname.split('/');
  if (first === 'challenge' && code) return challengeInvitation(code);
  if (first !== 'race' || !code) return null;
  const watching = new URLSearchParams(location.search).get('as') === 'spectator';
  return t(watching ? 'welcome.watchInvite' : 'welcome.raceInvite', decodeURIComponent(code).toUpperCase());
}

/** On a first visit to a challenge's link: who challenges, on what, asked of the server over
 * HTTP (no name needed yet); until it answers, that it is a challenge. */
function challengeInvitation(id) {
  const line = h('span', {}, t('welcome.challengeInvite'));
  fetch(`/challenge/${encodeURIComponent(decodeURIComponent(id))}/about`)
    .then((r) => (r.ok ? r.json() : null))
    .then((about) => {
      if (!about) return;
      const name = about.variant.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
      line.textContent = t('welcome.challengeFrom', about.challenger, name, about.best_of);
    })
    .catch(() => {});
  return line;
}

/** A transfer code as a person types it: eight letters and digits, a dash or spaces between. */
const TRANSFER_CODE = /^[A-Za-z0-9]{4}[-\s]?[A-Za-z0-9]{4}$/;

/** Who invites to what, asked of the server before hello (``invitation``) on a first visit to a
 * race's link: "alice invites you to race Freecell" written into ``line``. */
function askInvitation(line) {
  const [, first, code] = location.pathname.split('/');
  if (first !== 'race' || !code) return;
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch { return; }
  ws.binaryType = 'arraybuffer';
  const watching = new URLSearchParams(location.search).get('as') === 'spectator';
  ws.onopen = () => ws.send(encode({ type: 'invitation', id: 1, code: decodeURIComponent(code) }));
  ws.onmessage = (e) => {
    try {
      const told = decode(new Uint8Array(e.data));
      if (told.type === 'invitation' && line.isConnected) {
        line.textContent = t(watching ? 'welcome.hostWatch' : 'welcome.hostInvite', told.host, told.variant_name, told.code);
        line.dataset.host = told.host;
      }
    } catch { /* the plain invitation stays */ }
    ws.close();
  };
  ws.onerror = () => ws.close();
}

function nameForm(problem) {
  const input = h('input', { id: 'name', name: 'name', autocomplete: 'nickname', required: true, maxlength: 24, pattern: '[A-Za-z0-9_\\-]{1,24}', value: store.name ?? '' });
  const codeInput = h('input', { id: 'account-code', name: 'code', autocomplete: 'off' });
  let invitationLine = null;
  const form = h('form', { class: 'welcome', onsubmit: (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    store.name = name;
    connect({ name });
  } },
  h('h1', {}, 'Patience Club'),
  ((invite) => (invite ? (invitationLine = h('p', { class: 'invitation' }, invite)) : null))(invitation()),
  h('p', {}, t('welcome.pitch')),
  problem ? h('p', { class: 'error', role: 'alert' }, problem) : null,
  h('label', { for: 'name' }, t('welcome.name')),
  h('div', { class: 'inline' }, input, h('button', { type: 'submit' }, t('welcome.play'))),
  h('p', { class: 'small' }, t('welcome.rule')));
  const carry = h('details', { class: 'carry' },
    h('summary', {}, t('welcome.haveCode')),
    h('form', { onsubmit: (e) => {
      e.preventDefault();
      const code = codeInput.value.trim();
      if (!code) return;
      // a short code from the other device's "Show a code", or the long account code (a token)
      if (TRANSFER_CODE.test(code)) connect({ transfer: code });
      else {
        store.token = code;
        connect({ token: code });
      }
    } },
    h('label', { for: 'account-code' }, t('welcome.code')),
    h('div', { class: 'inline' }, codeInput, h('button', { type: 'submit' }, t('welcome.useCode')))));
  show({ element: h('section', { class: 'screen narrow' }, form, carry) });
  if (invitationLine) askInvitation(invitationLine);
  showLink('');
  input.focus();
}

function connect(credentials) {
  app.conn?.stop();
  // the link boot.js opened with the kept token, taken as it is (welcomed, or still opening)
  const opened = credentials.token && credentials.token === store.token ? early() : null;
  const conn = opened ?? new Connection(wsUrl(), () => (store.token ? { token: store.token } : credentials));
  app.conn = conn;
  conn.addEventListener('status', (e) => {
    const { online } = e.detail;
    showLink(e.detail);
    statusEl.dataset.online = String(online);
    document.body.classList.toggle('offline', !online);
  });
  conn.addEventListener('welcome', (e) => welcomed(e.detail.welcome, e.detail.again));
  conn.addEventListener('push', (e) => app.screen?.push?.(e.detail));
  const refused = (err) => {
    if (err.code === 'bad_token' && credentials.transfer) {
      nameForm(t('transfer.bad'));
    } else if (err.code === 'bad_token') {
      store.token = null;
      nameForm(t('welcome.unknown'));
    } else if (err.code === 'name_taken') nameForm(t('welcome.taken', credentials.name));
    else if (err.code === 'name_looks_taken') nameForm(t('name.looksTaken', credentials.name));
    else if (err.code === 'invalid_name') nameForm(t('welcome.invalid'));
    else nameForm(t('welcome.refused', err.message || err.code));
  };
  conn.addEventListener('refused', (e) => refused(e.detail));
  showLink('connecting');
  if (!opened) conn.start();
  else if (opened.refusal) refused(opened.refusal);
  else if (opened.welcome) {
    if (opened.online) {
      showLink({ online: true, retryInMs: 0 });
      statusEl.dataset.online = 'true';
    }
    welcomed(opened.welcome, false);
  }
}

function welcomed(welcome, again) {
  if (welcome.token) store.token = welcome.token;
  app.player = welcome.player;
  app.server = welcome.server;
  app.variants = new Map((welcome.server?.variants ?? []).map((v) => [v.id, v]));
  whoEl.textContent = welcome.player.name;
  if (again && app.screen?.resync) app.screen.resync();
  else if (!again || !app.screen?.resync) route();
}

// -- screens ---------------------------------------------------------------------------------

function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

function notFound(text) {
  return { element: h('section', { class: 'screen' }, h('h1', {}, t('nothere')), h('p', {}, text), h('a', { href: '/', 'data-link': '' }, t('button.home'))) };
}

/** The screens' modules, each imported when its screen is first shown. */
const SCREENS = {
  game: () => import('./game.js'),
  home: () => import('./home.js'),
  daily: () => import('./daily.js'),
  race: () => import('./race.js'),
  arena: () => import('./arena.js'),
  replay: () => import('./replay.js'),
  challenge: () => import('./challenge.js'),
  boards: () => import('./boards.js'),
  profile: () => import('./profile.js'),
};

/** A game screen that resumes after a reconnect with the server's current view. */
function gameScreen({ GamePanel }, view, options = {}) {
  const panel = new GamePanel(app, view, options);
  return {
    element: h('section', { class: 'screen' }, panel.element),
    panel,
    key: (e) => panel.key(e),
    resync: async () => {
      try {
        const reply = await app.conn.request({ type: 'get_game', game: panel.view.id });
        panel.offer(reply.game);
      } catch { /* the panel keeps what it has */ }
    },
    destroy: () => panel.destroy(),
  };
}

async function playScreen(variant, query) {
  const info = app.variants.get(variant);
  if (!info) return notFound(t('nothere.game', variant));
  // autoplay follows the settings, in every game that offers it; other options home's choice
  const request = startRequest(info, query);
  try {
    // the game's modules arrive while the server deals; on the page's first address boot.js
    // has asked for this game already, beside hello (or on the welcome)
    const asked = earlyGame(app.conn, request) ?? app.conn.request(request);
    const [reply, game] = await Promise.all([asked, SCREENS.game().then((m) => { performance.mark?.('pc-modules'); return m; })]);
    history.replaceState(null, '', `/game/${reply.game.id}`);
    return gameScreen(game, reply.game, { kind: 'solo' });
  } catch (err) {
    return notFound(t('nothere.start', err.message));
  }
}

async function resumeScreen(id) {
  try {
    // the games list says what kind of game it is (a solo game may be restarted)
    const [reply, listed, game] = await Promise.all([
      app.conn.request({ type: 'get_game', game: id }),
      app.conn.request({ type: 'games', limit: 100 }).catch(() => null),
      SCREENS.game(),
    ]);
    const kind = listed?.games?.find((g) => g.id === id)?.kind;
    return gameScreen(game, reply.game, kind ? { kind } : {});
  } catch (err) {
    const why = err.code === 'forbidden' ? t('nothere.forbidden') : err.code === 'not_found' ? t('nothere.none') : err.message;
    return notFound(why);
  }
}

let routing = 0;

async function route() {
  const turn = ++routing;
  const url = new URL(location.href);
  const [, first = '', second = ''] = url.pathname.split('/');
  const arg = decodeURIComponent(second);
  let screen;
  const date = url.searchParams.get('date');
  if (first === '') screen = (await SCREENS.home()).homeScreen(app);
  else if (first === 'play') screen = await playScreen(arg, url.searchParams);
  else if (first === 'daily') screen = await (await SCREENS.daily()).dailyScreen(app, arg, date);
  else if (first === 'leaderboard') screen = await (await SCREENS.daily()).leaderboardScreen(app, arg, date);
  else if (first === 'race') screen = await (await SCREENS.race()).raceScreen(app, arg.toUpperCase(), url.searchParams.get('as') === 'spectator' ? 'spectator' : 'racer');
  else if (first === 'game') screen = await resumeScreen(arg);
  else if (first === 'replay') screen = await (await SCREENS.replay()).replayScreen(app, arg, url.searchParams);
  else if (first === 'arenas') screen = await (await SCREENS.arena()).arenasScreen(app);
  else if (first === 'arena') screen = await (await SCREENS.arena()).arenaScreen(app, arg.toUpperCase());
  else if (first === 'challenge') screen = await (await SCREENS.challenge()).challengeScreen(app, arg);
  else if (first === 'boards') screen = await (await SCREENS.boards()).boardsScreen(app, url.searchParams);
  else if (first === 'player') screen = await (await SCREENS.profile()).profileScreen(app, arg);
  else screen = notFound(t('nothere.address'));
  if (turn === routing) show(screen);
  else screen.destroy?.();
}

// -- page-wide input -------------------------------------------------------------------------

document.addEventListener('click', (e) => {
  const link = e.target.closest('a[data-link]');
  if (!link || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(link.getAttribute('href'));
});

window.addEventListener('popstate', () => { if (app.conn?.online) route(); });

document.addEventListener('keydown', (e) => {
  const target = e.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  if ((target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || target instanceof HTMLElement && target.tagName === 'SUMMARY') && (e.key === ' ' || e.key === 'Enter')) return;
  if (e.key === '?') {
    const help = main.querySelector('details.keys');
    if (help) { help.open = !help.open; e.preventDefault(); }
    return;
  }
  if (app.screen?.key?.(e)) e.preventDefault();
});

// the language: the browser's, or the one chosen in the header (kept in the browser); the
// switch and the settings button are in the page's header from the start (index.html), so the
// header keeps its size when they are filled in
const languages = document.getElementById('lang');
languages.replaceChildren(...Object.entries(LANGUAGES).map(([code, table]) => h('option', { value: code, lang: code, selected: code === language() }, table['lang.name'])));
languages.value = language();
languages.addEventListener('change', (e) => {
  setLanguage(e.target.value);
  settingsButton.setAttribute('aria-label', t('settings.button'));
  settingsButton.title = t('settings.button');
  showLink(link);
  if (app.player) route();
  else nameForm();
});
const settingsButton = document.getElementById('settings-button');
settingsButton.addEventListener('click', () => openSettings());
setLanguage(language(), false);
settingsButton.setAttribute('aria-label', t('settings.button'));
settingsButton.title = t('settings.button');
applySettings();

if (store.token) connect({ token: store.token });
else nameForm();
