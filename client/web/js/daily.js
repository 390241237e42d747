// The daily challenge: today's deal of a game, opened on a start step (nothing dealt, no clock,
// until the player starts), the player's ranked attempt, practice on the same deal once it has
// ended, the leaderboard with the player's own place, the streak, and a text to share the result.

import { language, t } from './i18n.js';
import { dialect } from './dialect.js';
import { GamePanel } from './game.js';
import { UNFINISHED, WON } from './notation.js';
import { RULES, openRules } from './rules.js';
import { clockText, copyText, h, playerLink, stateWords } from './ui.js';

/** A player's rating beside their name ("1523 +14", "1500?"), or null when they have none. */
export function ratingBadge(rating) {
  if (!rating) return null;
  let shown = t('rating.shown', rating.rating, rating.provisional);
  if (rating.change !== undefined) shown += ` ${t('rating.change', rating.change)}`;
  return h('span', { class: 'rating', title: t('rating.label', shown, rating.provisional) }, shown);
}

function entryRow(entry, mine) {
  return h('tr', { class: mine ? 'me' : null, 'aria-current': mine ? 'true' : null },
    h('td', {}, entry.rank === null || entry.rank === undefined ? '\u2013' : String(entry.rank)),
    h('th', { scope: 'row' }, playerLink(entry.name), entry.rating ? ' ' : null, ratingBadge(entry.rating)),
    h('td', {}, stateWords(entry.state) + (entry.review ? t('daily.review', entry.review) : '')),
    h('td', {}, clockText(entry.elapsed_ms)),
    h('td', {}, String(entry.moves)),
    h('td', {}, String(entry.score)),
    h('td', {}, entry.undos === undefined ? '\u2013' : String(entry.undos)));
}

/** A leaderboard (or race standings) as a table; the player's own entry marked. */
export function resultsTable(entries, me, playerId, caption) {
  const head = h('thead', {}, h('tr', {}, ['rank', 'name', 'state', 'time', 'moves', 'score', 'undos'].map((col) => h('th', { scope: 'col' }, t(`col.${col}`)))));
  const rows = entries.map((e) => entryRow(e, e.player === playerId));
  if (me && !entries.some((e) => e.player === me.player)) rows.push(entryRow(me, true));
  return h('table', { class: 'results' }, h('caption', {}, caption), head, h('tbody', {}, rows));
}

async function loadBoard(app, box, variant, date) {
  const request = { type: 'leaderboard', variant, limit: 50 };
  if (date) request.date = date;
  try {
    const reply = await app.conn.request(request);
    const name = app.variants.get(variant)?.name ?? variant;
    const me = reply.me;
    const place = me ? (me.rank ? t('daily.place', me.rank, Math.max(reply.entries.length, me.rank)) : (me.review ? t('daily.held', me.review) : t('daily.notRanked'))) : t('daily.noAttempt');
    box.replaceChildren(
      h('h2', { id: 'leaderboard-title' }, `${t('home.leaderboard')} \u00b7 ${name} \u00b7 ${reply.date}`),
      h('p', { class: 'my-place' }, place),
      reply.entries.length || me ? resultsTable(reply.entries, me, app.player.id, t('daily.caption', name, reply.date))
        : h('p', {}, date && date !== new Date().toISOString().slice(0, 10) ? t('daily.noneThatDay') : t('daily.noneYet')));
    return reply;
  } catch (err) {
    box.replaceChildren(h('p', { class: 'error' }, t('daily.noBoard', err.message)));
    return null;
  }
}

/** The streak and the player's figures for this game (the ``stats`` message). */
async function streak(app, box, variant) {
  try {
    const reply = await app.conn.request({ type: 'stats' });
    const mine = (reply.variants ?? []).find((v) => v.variant === variant);
    const name = app.variants.get(variant)?.name ?? variant;
    const bits = [t('home.streak', reply.daily_streak, reply.dailies_won ?? 0)];
    if (mine) {
      bits.push(t('daily.mine', name, mine.played, mine.won));
      if (mine.best_ms !== null && mine.best_ms !== undefined) bits.push(t('daily.best', clockText(mine.best_ms)));
      if (mine.fewest_moves !== null && mine.fewest_moves !== undefined) bits.push(t('daily.fewest', mine.fewest_moves));
    }
    box.textContent = bits.join(' \u00b7 ');
  } catch {
    box.textContent = '';
  }
}

/** The words a player pastes to friends. */
export function shareText(variantName, date, view, board) {
  const me = board?.me;
  const result = view.state === WON ? `won in ${clockText(view.elapsed_ms)}, ${view.moves} moves` : `${view.score}/${view.max_score}, ${stateWords(view.state)}`;
  const rank = me?.rank ? `, rank ${me.rank} of ${Math.max(board.entries.length, me.rank)}` : '';
  return `Patience Club \u00b7 ${variantName} daily ${date}: ${result}${rank}`;
}

/** The start step (the server's ``daily_intro``): the game, its goal, the terms of the ranked
 * attempt, the streak, and Start. Nothing of the deal is sent before Start, and the ranked clock
 * starts then. */
function introStep(app, info, intro, onStart) {
  const rules = RULES[language()]?.[info.id] ?? RULES.en[info.id];
  const problem = h('p', { class: 'error', role: 'alert', hidden: true });
  const go = h('button', { type: 'button', class: 'primary start-daily' }, t('daily.start'));
  go.addEventListener('click', async () => {
    go.disabled = true;
    try {
      await onStart();
    } catch (err) {
      problem.textContent = t('daily.noStart', err.message);
      problem.hidden = false;
      go.disabled = false;
    }
  });
  return h('section', { class: 'screen daily daily-intro', 'aria-labelledby': 'daily-intro-title' },
    h('h1', { id: 'daily-intro-title' }, t('daily.introTitle', info.name, intro.date)),
    rules?.goal ? h('p', { class: 'intro-goal' }, rules.goal) : null,
    h('p', {}, h('button', { type: 'button', class: 'linkish', onclick: () => openRules(info) }, t('rules.title', info.name))),
    h('p', { class: 'terms' }, t('daily.terms')),
    h('p', { class: 'streak' }, t('daily.introStreak', intro.daily_streak)),
    h('p', {}, go), problem);
}

export async function dailyScreen(app, variant, date = null) {
  const info = app.variants.get(variant);
  if (!info) return { element: h('section', { class: 'screen' }, h('p', {}, `There is no game called ${variant}.`)) };
  if (date) return archiveScreen(app, variant, info, date);
  let reply;
  try {
    reply = await app.conn.request({ type: 'daily', variant });
  } catch (err) {
    return { element: h('section', { class: 'screen' }, h('h1', {}, `${info.name} daily`), h('p', { class: 'error' }, `Not today: ${err.message}`)) };
  }
  if (reply.type !== 'daily_intro') return attemptScreen(app, variant, info, reply, {});
  const screen = {};
  screen.element = introStep(app, info, reply, async () => {
    const started = await app.conn.request({ type: 'daily', variant, start: true });
    const intro = screen.element;
    attemptScreen(app, variant, info, started, screen);
    intro.replaceWith(screen.element);
  });
  return screen;
}

/** The ranked attempt (dealt), practice games on its deal, the leaderboard: fills ``screen``. */
function attemptScreen(app, variant, info, reply, screen) {
  const date = reply.daily?.date ?? '';
  const attempt = reply.game;
  const boardBox = h('section', { class: 'leaderboard', 'aria-labelledby': 'leaderboard-title' });
  const streakBox = h('p', { class: 'streak' });
  const share = h('div', { class: 'share', hidden: true });
  const slot = h('div', { class: 'slot' });
  screen.panel = null;
  let board = null;

  const refresh = async () => {
    board = await loadBoard(app, boardBox, variant, date);
    streak(app, streakBox, variant);
    const view = screen.attempt;
    if (view && !UNFINISHED.has(view.state)) {
      const text = shareText(info.name, date, view, board);
      const copied = h('span', { role: 'status' });
      share.replaceChildren(h('p', { class: 'share-text' }, text),
        h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(text)) ? t('copied') : t('copy.select'); } }, t('daily.copy')), copied);
      share.hidden = false;
    }
  };

  const practice = async () => {
    try {
      const r = await app.conn.request(dialect.practice(variant, screen.attempt));
      mount(r.game, 'practice');
    } catch (err) {
      screen.panel?.say(t('daily.noPractice', err.message));
    }
  };

  const endActions = () => [
    h('button', { type: 'button', onclick: practice }, 'Practice this deal'),
    h('a', { href: '/', 'data-link': '', class: 'button' }, 'Home'),
  ];

  const backToAttempt = h('button', { type: 'button', hidden: true, onclick: async () => {
    try {
      const r = await app.conn.request({ type: 'get_game', game: screen.attempt.id });
      mount(r.game, 'daily');
    } catch (err) {
      screen.panel?.say(t('daily.notLoaded', err.message));
    }
  } }, t('daily.back'));

  const mount = (view, kind) => {
    screen.panel?.destroy();
    backToAttempt.hidden = kind !== 'practice';
    const panel = new GamePanel(app, view, {
      kind,
      hints: kind !== 'daily', // the ranked attempt: hints_off; practice allows them
      title: t('daily.title', date, kind === 'practice'),
      endActions,
      onView: (v) => { if (kind === 'daily') screen.attempt = v; },
      onEnded: () => refresh(),
    });
    screen.panel = panel;
    slot.replaceChildren(panel.element);
  };

  screen.attempt = attempt;
  mount(attempt, 'daily');
  screen.element = h('section', { class: 'screen daily' },
    h('div', { class: 'daily-head' },
      streakBox,
      h('button', { type: 'button', onclick: () => { refresh(); boardBox.scrollIntoView?.({ block: 'start' }); } }, t('home.leaderboard')),
      backToAttempt),
    slot, share, boardBox);
  screen.key = (e) => screen.panel.key(e);
  screen.resync = async () => {
    try {
      const r = await app.conn.request({ type: 'get_game', game: screen.panel.view.id });
      screen.panel.offer(r.game);
    } catch { /* keep what is shown */ }
  };
  screen.destroy = () => screen.panel?.destroy();
  refresh();
  return screen;
}

/** The daily archive: a new unranked game on a past day's deal (its key public by now), and
 * that day's board once the game has ended. */
async function archiveScreen(app, variant, info, date) {
  let reply;
  try {
    reply = await app.conn.request({ type: 'daily', variant, date });
  } catch (err) {
    return { element: h('section', { class: 'screen' }, h('h1', {}, t('archive.title', info.name, date)), h('p', { class: 'error' }, t('archive.none', err.message)),
      h('a', { href: `/leaderboard/${variant}?date=${date}`, 'data-link': '', class: 'button' }, t('archive.board'))) };
  }
  const boardBox = h('section', { class: 'leaderboard', 'aria-labelledby': 'leaderboard-title', hidden: true });
  const screen = {};
  const panel = new GamePanel(app, reply.game, {
    kind: 'practice',
    hints: true,
    title: t('archive.gameTitle', date),
    endActions: () => [
      h('a', { href: `/daily/${variant}?date=${date}`, 'data-link': '', class: 'button' }, t('archive.again')),
      h('a', { href: '/', 'data-link': '', class: 'button' }, t('button.home')),
    ],
    onEnded: async () => {
      boardBox.hidden = false;
      await loadBoard(app, boardBox, variant, date);
    },
  });
  screen.panel = panel;
  screen.element = h('section', { class: 'screen daily archive' },
    h('p', { class: 'notice' }, t('archive.unranked', info.name, date)), panel.element, boardBox);
  screen.key = (e) => panel.key(e);
  screen.resync = async () => {
    try {
      panel.offer((await app.conn.request({ type: 'get_game', game: panel.view.id })).game);
    } catch { /* keep what is shown */ }
  };
  screen.destroy = () => panel.destroy();
  return screen;
}

export async function leaderboardScreen(app, variant, date) {
  const info = app.variants.get(variant);
  const box = h('section', { class: 'leaderboard', 'aria-labelledby': 'leaderboard-title' });
  const dateInput = h('input', { type: 'date', id: 'board-date', value: date ?? '' });
  const picker = h('form', { class: 'inline', onsubmit: (e) => {
    e.preventDefault();
    app.navigate(`/leaderboard/${variant}${dateInput.value ? `?date=${dateInput.value}` : ''}`);
  } },
  h('label', { for: 'board-date' }, t('daily.day')), dateInput, h('button', { type: 'submit' }, t('daily.show')));
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('home.games') }, [...app.variants.values()].map((v) =>
    h('a', { href: `/leaderboard/${v.id}${date ? `?date=${date}` : ''}`, 'data-link': '', 'aria-current': v.id === variant ? 'page' : null }, v.name)));
  const element = h('section', { class: 'screen' }, h('h1', {}, t('daily.boardTitle', info?.name ?? variant)), tabs, picker, box,
    h('p', {}, h('a', { href: `/daily/${variant}`, 'data-link': '', class: 'button' }, t('daily.playToday', info?.name ?? variant))));
  const reply = await loadBoard(app, box, variant, date);
  if (reply?.date && !dateInput.value) dateInput.value = reply.date; // the day shown, today's too
  // a past day: its deal may be played again, unranked (the archive); and the season's boards
  if (reply?.date && reply.date < new Date().toISOString().slice(0, 10)) {
    element.append(h('p', {}, h('a', { href: `/daily/${variant}?date=${reply.date}`, 'data-link': '', class: 'button archive-play' }, t('archive.play', reply.date))));
  }
  element.append(h('p', {}, h('a', { href: `/boards?period=week&variant=${variant}`, 'data-link': '', class: 'button' }, t('boards.title'))));
  return { element, resync: () => loadBoard(app, box, variant, date) };
}
