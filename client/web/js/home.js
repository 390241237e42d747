// Home: the five games (new game, numbered deal, options, daily, leaderboard), races (create one,
// join one by code), the player's own games to go back to, statistics, and the account code.

import { matchLine } from './challenge.js';
import { dialect } from './dialect.js';
import { dealWords } from './fairplay.js';
import { t } from './i18n.js';
import { ENDED, PLAYING, UNFINISHED } from './notation.js';
import { openRules } from './rules.js';
import { AUTOPLAY, setSetting, settings } from './settings.js';
import { DEAL_KINDS, store, storeEvents } from './store.js';
import { clockText, copyText, h, stateWords } from './ui.js';

function optionWords(name) {
  const words = t(`option.${name}`);
  return words === `option.${name}` ? name.replace(/_/g, ' ') : words;
}

function gameRow(app, info) {
  // autoplay is a setting of every game that offers it (settings.js): its box changes that
  const saved = { ...store.options(info.id), [AUTOPLAY]: settings().autoplay };
  const boxes = Object.entries(info.options ?? {}).filter(([, v]) => typeof v === 'boolean').map(([name, fallback]) => {
    const id = `opt-${info.id}-${name}`;
    const box = h('input', { type: 'checkbox', id, checked: saved[name] ?? fallback, onchange: () => {
      if (name === AUTOPLAY) setSetting(AUTOPLAY, box.checked);
      else store.setOptions(info.id, { ...store.options(info.id), [name]: box.checked });
    } });
    return h('label', { for: id, class: 'option' }, box, ` ${optionWords(name)}`);
  });
  const seed = h('input', { type: 'number', min: 1, max: 2147483647, inputmode: 'numeric', 'aria-label': t('home.dealNumber', info.name), placeholder: t('home.dealPlaceholder'), class: 'seed' });
  const playSeed = (e) => {
    e.preventDefault();
    if (seed.value) app.navigate(`/play/${info.id}?seed=${Number(seed.value)}`);
  };
  return h('li', { class: 'variant', dataset: { variant: info.id } },
    h('h3', {}, info.name),
    h('div', { class: 'actions' },
      h('a', { href: newGameHref(info.id), 'data-link': '', class: 'button new-game', dataset: { variant: info.id }, 'aria-label': t('home.newGame', info.name) }, t('button.newGame')),
      h('a', { href: `/daily/${info.id}`, 'data-link': '', class: 'button', 'aria-label': t('home.dailyOf', info.name) }, t('home.daily')),
      h('a', { href: `/leaderboard/${info.id}`, 'data-link': '', class: 'button', 'aria-label': t('home.leaderboardOf', info.name) }, t('home.leaderboard')),
      h('button', { type: 'button', class: 'linkish', 'aria-label': t('rules.title', info.name), onclick: () => openRules(info) }, t('button.rules'))),
    h('form', { class: 'inline', onsubmit: playSeed }, seed, h('button', { type: 'submit', 'aria-label': t('home.playDealOf', info.name) }, t('home.playDeal'))),
    boxes.length ? h('div', { class: 'options' }, boxes) : null);
}

function newGameHref(variant) {
  return `/play/${variant}?deal=${store.deal}`;
}

/** What New game deals: any secret deal, or one the server's solver has won, by difficulty. */
function dealChoice(list) {
  const choice = h('select', { id: 'new-deal', onchange: () => {
    store.deal = choice.value;
    for (const link of list.querySelectorAll('a.new-game')) link.setAttribute('href', newGameHref(link.dataset.variant));
  } }, DEAL_KINDS.map((kind) => h('option', { value: kind, selected: kind === store.deal }, t(`deal.kind.${kind}`))));
  return h('p', { class: 'inline' }, h('label', { for: 'new-deal' }, t('home.newDeal')), ' ', choice);
}

/** The difficulties of a winnable deal (New game's and New race's choice). */
const WINNABLE = DEAL_KINDS.filter((kind) => kind !== 'any');

function raceForms(app) {
  const variants = [...app.variants.values()];
  const variant = h('select', { id: 'race-variant' }, variants.map((v) => h('option', { value: v.id, selected: Boolean(v.race_default) }, v.name)));
  // a secret deal (the default), one the server's solver has won of a difficulty, or a numbered one
  const dealKind = h('select', { id: 'race-deal' },
    h('option', { value: 'secret' }, t('home.secretDeal')),
    WINNABLE.map((kind) => h('option', { value: kind }, t(`deal.kind.${kind}`))),
    h('option', { value: 'numbered' }, t('home.numberedDeal')));
  const seed = h('input', { id: 'race-seed', type: 'number', min: 1, max: 2147483647, placeholder: t('home.dealPlaceholder'), hidden: true });
  dealKind.addEventListener('change', () => { seed.hidden = dealKind.value !== 'numbered'; });
  const hints = h('input', { id: 'race-hints', type: 'checkbox' });
  const rated = h('input', { id: 'race-rated', type: 'checkbox' });
  // what spectators see of the racers' boards in a friendly race (a rated one hides them)
  const boards = h('select', { id: 'race-boards' }, ['live', 'delayed', 'hidden'].map((rule) => h('option', { value: rule }, t(`home.boards.${rule}`))));
  const minutes = h('input', { id: 'race-minutes', type: 'number', min: 1, max: 1440, value: 30 });
  const problem = h('p', { class: 'error', role: 'alert' });
  const create = async (e) => {
    e.preventDefault();
    const request = {
      type: 'create_room', variant: variant.value, options: store.options(variant.value),
      hints: hints.checked && !rated.checked, time_limit_s: Math.round(Number(minutes.value || 30) * 60),
      boards: boards.value,
    };
    if (WINNABLE.includes(dealKind.value)) Object.assign(request, { winnable: true, difficulty: dealKind.value });
    if (rated.checked) request.rated = true; // a rated race's deal is the server's: no seed
    else if (dealKind.value === 'numbered' && seed.value) request.seed = Number(seed.value);
    try {
      const reply = await app.conn.request(request, { resend: false });
      app.navigate(`/race/${reply.room.code}`);
    } catch (err) {
      problem.textContent = t('home.noRoom', err.message);
    }
  };
  const code = h('input', { id: 'join-code', maxlength: 6, autocapitalize: 'characters', autocomplete: 'off', placeholder: 'K7QF2M' });
  const spectate = h('input', { id: 'join-spectate', type: 'checkbox' });
  const join = (e) => {
    e.preventDefault();
    const c = code.value.trim().toUpperCase();
    if (c) app.navigate(`/race/${encodeURIComponent(c)}${spectate.checked ? '?as=spectator' : ''}`);
  };
  return h('section', { class: 'races', 'aria-labelledby': 'races-title' },
    h('h2', { id: 'races-title' }, t('home.races')),
    h('form', { class: 'create-room', onsubmit: create },
      h('label', { for: 'race-variant' }, t('home.game')), variant,
      h('label', { for: 'race-deal' }, t('home.deal')), h('span', {}, dealKind, ' ', seed),
      h('label', { for: 'race-hints' }, t('home.hints')), hints,
      h('label', { for: 'race-rated' }, t('home.rated')), rated,
      h('label', { for: 'race-boards' }, t('home.boards')), boards,
      h('label', { for: 'race-minutes' }, t('home.timeLimit')), minutes,
      h('button', { type: 'submit' }, t('home.createRace')), problem),
    h('form', { class: 'join-room inline', onsubmit: join },
      h('label', { for: 'join-code' }, t('home.roomCode')), code,
      h('label', { for: 'join-spectate', class: 'option' }, spectate, ` ${t('home.watchOnly')}`),
      h('button', { type: 'submit' }, t('home.joinRace'))));
}


function gameKind(kind) {
  const words = t(`gamekind.${kind}`);
  return words === `gamekind.${kind}` ? kind : words;
}

/** The games list to show: every unfinished game first (newest first), then the ended ones. */
export function gamesToShow(open, recent) {
  const seen = new Set();
  const all = [];
  for (const g of [...open, ...recent]) {
    if (seen.has(g.id)) continue;
    seen.add(g.id);
    all.push(g);
  }
  return [...all.filter((g) => UNFINISHED.has(g.state)), ...all.filter((g) => !UNFINISHED.has(g.state))];
}

function gameLine(app, g) {
  const name = app.variants.get(g.variant)?.name ?? g.variant;
  const started = String(g.started_at ?? '').slice(0, 10);
  const words = [name, dealWords(g.deal), gameKind(g.kind), stateWords(g.state), t('home.moves', g.ply), clockText(g.elapsed_ms), started].filter(Boolean);
  // a race game of a room the player is still in opens the race (its rivals, its hints rule)
  const href = g.room ? `/race/${encodeURIComponent(g.room)}` : `/game/${g.id}`;
  return h('li', { class: UNFINISHED.has(g.state) ? 'unfinished' : null, dataset: { game: g.id, state: g.state } },
    h('a', { href, 'data-link': '' }, words.join(' \u00b7 ')),
    UNFINISHED.has(g.state) ? h('span', { class: 'badge' }, t('home.resume')) : null,
    ENDED.has(g.state) ? [' ', h('a', { href: `/replay/${encodeURIComponent(g.id)}`, 'data-link': '', class: 'replay-link' }, t('home.replay'))] : null);
}

/** "Your games": the player's own games (the ``games`` message), unfinished first, each a link
 * to ``/game/ID``, where it goes on: leaving a game resigns nothing. */
async function yourGames(app, box) {
  if (!dialect.has.games) return;
  try {
    const [open, recent] = await Promise.all([
      app.conn.request({ type: 'games', state: PLAYING, limit: 20 }),
      app.conn.request({ type: 'games', limit: 20 }),
    ]);
    const games = gamesToShow(open.games ?? [], recent.games ?? []);
    if (!games.length) return;
    box.replaceChildren(h('h2', { id: 'your-games-title' }, t('home.yourGames')),
      h('ul', { class: 'your-games', 'aria-labelledby': 'your-games-title' }, games.map((g) => gameLine(app, g))));
    box.hidden = false;
  } catch {
    // a server without the games list: nothing to show
  }
}

/** "Your challenges": the latest sent and received, each a link to its page, with where it
 * stands (yours to play, waiting, who won) and the match's score. */
async function yourChallenges(app, box) {
  try {
    const listed = (await app.conn.request({ type: 'challenges', limit: 5 })).challenges ?? [];
    if (!listed.length) return;
    const me = app.player.id;
    const line = (c) => {
      const name = app.variants.get(c.variant)?.name ?? c.variant;
      const them = c.challenger === me ? c.opponent_name : c.challenger_name;
      let where;
      if (c.state === 'done') where = c.result === 'draw' ? t('challenge.draw') : t('challenge.wins', c.result === 'challenger' ? c.challenger_name : c.opponent_name);
      else if (c.state === 'open' && c.challenger !== me) where = t('challenges.yourTurn');
      else if (c.state === 'setting' && c.challenger === me) where = t('challenges.yourTurn');
      else where = t('challenges.waiting');
      return h('li', {}, h('a', { href: `/challenge/${encodeURIComponent(c.id)}`, 'data-link': '' },
        t('challenges.line', name, them ?? '?', c.round)), ` \u00b7 ${where} \u00b7 `, matchLine(c.match).textContent);
    };
    box.replaceChildren(h('h2', { id: 'your-challenges-title' }, t('challenges.title')),
      h('ul', { class: 'your-challenges', 'aria-labelledby': 'your-challenges-title' }, listed.map(line)));
    box.hidden = false;
  } catch {
    // a server without challenges: nothing to show
  }
}

async function statistics(app, box) {
  try {
    const reply = await app.conn.request({ type: 'stats' });
    const rows = (reply.variants ?? []).map((v) => h('tr', {},
      h('th', { scope: 'row' }, app.variants.get(v.variant)?.name ?? v.variant),
      h('td', {}, String(v.played)), h('td', {}, String(v.won)),
      h('td', {}, v.best_ms === null ? '\u2013' : clockText(v.best_ms)),
      h('td', {}, v.fewest_moves === null ? '\u2013' : String(v.fewest_moves))));
    box.replaceChildren(h('h2', {}, t('home.stats')),
      h('p', { class: 'streak' }, t('home.streak', reply.daily_streak, reply.dailies_won ?? 0)),
      rows.length ? h('table', { class: 'stats' }, h('thead', {}, h('tr', {}, h('th', {}, t('home.game')), h('th', {}, t('stats.played')), h('th', {}, t('stats.won')), h('th', {}, t('stats.best')), h('th', {}, t('stats.fewest')))), h('tbody', {}, rows)) : h('p', {}, t('stats.none')));
  } catch {
    box.replaceChildren();
  }
}

/** A short code (``transfer_code``) to enter on the other device, and the minutes it lasts. */
async function showTransferCode(app, box) {
  clearInterval(box.timer);
  try {
    const reply = await app.conn.request({ type: 'transfer_code', token: store.token ?? '' });
    const left = h('span', { class: 'transfer-left', role: 'timer' });
    const tick = () => {
      const ms = reply.expires_ms - Date.now();
      if (ms <= 0) { clearInterval(box.timer); box.replaceChildren(h('p', {}, t('transfer.expired'))); return; }
      left.textContent = t('transfer.left', clockText(ms));
    };
    box.replaceChildren(h('p', {}, t('transfer.enter')), h('p', { class: 'transfer-code' }, reply.code), h('p', { class: 'small' }, left));
    tick();
    box.timer = setInterval(tick, 1000);
  } catch (err) {
    box.replaceChildren(h('p', { class: 'problem' }, err.message || err.code));
  }
}

function account(app) {
  const code = h('code', { class: 'token', hidden: true });
  const copied = h('span', { role: 'status' });
  const transfer = h('div', { class: 'transfer', 'aria-live': 'polite' });
  const confirm = h('p', { class: 'confirm logout-confirm', hidden: true }, t('account.logoutExplain'), ' ',
    h('button', { type: 'button', class: 'logout-yes', onclick: () => {
      store.token = null;
      store.room = null;
      location.assign('/');
    } }, t('account.logoutYes')), ' ',
    h('button', { type: 'button', onclick: () => { confirm.hidden = true; } }, t('button.cancel')));
  return h('div', { class: 'account' },
    h('details', { class: 'carry' },
      h('summary', {}, t('account.carry')),
      h('p', {}, t('transfer.explain')),
      h('button', { type: 'button', class: 'transfer-button', onclick: () => showTransferCode(app, transfer) }, t('transfer.show')),
      transfer,
      h('details', { class: 'long-code' },
        h('summary', {}, t('account.longCode')),
        h('p', {}, t('account.explain')),
        h('button', { type: 'button', onclick: () => { code.textContent = store.token ?? ''; code.hidden = false; } }, t('account.show')), ' ',
        h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(store.token ?? '')) ? t('copied') : t('copy.select'); } }, t('copy')),
        copied, h('p', {}, code))),
    h('p', {}, h('button', { type: 'button', class: 'logout', onclick: () => { confirm.hidden = false; } }, t('account.logout'))),
    confirm);
}

/** The way back to the race room the player is in, kept to the room as it changes (a comment
 * node, which takes no room, while there is none). */
function roomNotice() {
  const notice = () => (store.room
    ? h('p', { class: 'notice in-race' }, t('home.inRace', store.room), ' ',
      h('a', { href: `/race/${store.room}`, 'data-link': '', class: 'button primary' }, t('home.backToRace')))
    : document.createComment('no race room'));
  const slot = { node: notice() };
  const changed = () => {
    const next = notice();
    slot.node.replaceWith(next);
    slot.node = next;
  };
  storeEvents.addEventListener('room', changed);
  slot.stop = () => storeEvents.removeEventListener('room', changed);
  return slot;
}

export function homeScreen(app) {
  const inRace = roomNotice();
  const games = h('section', { hidden: true, class: 'mine' });
  const stats = h('section', { class: 'stats-box' });
  const challenges = h('section', { hidden: true, class: 'mine challenges-box' });
  const list = h('ul', { class: 'variants' }, [...app.variants.values()].map((info) => gameRow(app, info)));
  const element = h('section', { class: 'screen home' },
    h('h1', {}, t('home.welcome', app.player.name)),
    app.server?.motd ? h('p', { class: 'motd' }, app.server.motd) : null,
    inRace.node,
    h('section', { 'aria-labelledby': 'games-title' },
      h('h2', { id: 'games-title' }, t('home.games')),
      dealChoice(list), list),
    raceForms(app),
    h('section', { class: 'arenas-link', 'aria-labelledby': 'arenas-title' }, h('h2', { id: 'arenas-title' }, t('arena.listTitle')),
      h('p', {}, t('arena.pitch'), ' ', h('a', { href: '/arenas', 'data-link': '', class: 'button' }, t('arena.open')))),
    games, challenges, stats,
    h('p', { class: 'inline boards-links' },
      h('a', { href: '/boards', 'data-link': '', class: 'button' }, t('boards.title')),
      h('a', { href: `/player/${encodeURIComponent(app.player.name)}`, 'data-link': '', class: 'button' }, t('profile.mine'))),
    account(app));
  yourGames(app, games);
  yourChallenges(app, challenges);
  statistics(app, stats);
  return {
    element,
    resync: () => { yourGames(app, games); yourChallenges(app, challenges); statistics(app, stats); },
    destroy: () => inRace.stop(),
  };
}
