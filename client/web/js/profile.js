// A player's profile (/player/NAME): ratings with their history drawn as charts (each with its
// table), games per game with the win rate, best and median time and daily streaks, daily
// places, arenas played, and recent games to open as replays. Its own player may hide it.

import { dayText, lineChart } from './chart.js';
import { ratingBadge } from './daily.js';
import { t } from './i18n.js';
import { clockText, h, stateWords } from './ui.js';

function section(id, title, ...body) {
  return h('section', { class: 'profile-part', 'aria-labelledby': id }, h('h2', { id }, title), ...body);
}

function variantName(app, id) {
  return app.variants.get(id)?.name ?? id;
}

function ratings(app, reply) {
  if (!reply.ratings.length) return section('p-ratings', t('profile.ratings'), h('p', {}, t('profile.noRatings')));
  return section('p-ratings', t('profile.ratings'), reply.ratings.map((r) => {
    const name = variantName(app, r.variant);
    const points = r.history.map((p) => ({ x: p.at_ms, y: p.rating, label: `${p.rating} (\u00b1${p.deviation})` }));
    const first = points[0]?.y;
    const last = points.at(-1)?.y;
    return h('div', { class: 'rating-part' },
      h('h3', {}, name, ' ', ratingBadge(r.rating), ' ', h('span', { class: 'small' }, t('profile.rated', r.games))),
      points.length ? lineChart(points, {
        id: `chart-${r.variant}`,
        title: t('profile.chartTitle', name),
        summary: t('profile.chartSummary', first, last, points.length),
        columns: [t('profile.col.day'), t('col.rating')],
      }) : null);
  }));
}

function games(app, reply) {
  const head = ['home.game', 'stats.played', 'stats.won', 'profile.col.rate', 'stats.best', 'profile.col.median', 'profile.col.streak', 'profile.col.bestStreak'];
  const time = (ms) => (ms === null || ms === undefined ? '\u2013' : clockText(ms));
  const rows = reply.variants.map((v) => h('tr', {},
    h('th', { scope: 'row' }, variantName(app, v.variant)),
    h('td', {}, String(v.played)), h('td', {}, String(v.won)),
    h('td', {}, v.played ? `${Math.round((100 * v.won) / v.played)}%` : '\u2013'),
    h('td', {}, time(v.best_ms)), h('td', {}, time(v.median_ms)),
    h('td', {}, String(v.streak)), h('td', {}, String(v.best_streak))));
  return section('p-games', t('profile.games'),
    h('p', { class: 'streak' }, t('profile.streak', reply.streak, reply.best_streak)),
    rows.length ? h('div', { class: 'scroll' }, h('table', { class: 'stats' },
      h('caption', {}, t('profile.gamesCaption', reply.player.name)),
      h('thead', {}, h('tr', {}, head.map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, rows))) : h('p', {}, t('stats.none')));
}

function dailies(app, reply) {
  if (!reply.dailies.length) return section('p-dailies', t('profile.dailies'), h('p', {}, t('profile.noDailies')));
  const rows = reply.dailies.map((d) => h('tr', {},
    h('td', {}, h('a', { href: `/leaderboard/${d.variant}?date=${d.date}`, 'data-link': '' }, d.date)),
    h('th', { scope: 'row' }, variantName(app, d.variant)),
    h('td', {}, stateWords(d.state)),
    h('td', {}, d.place === null ? '\u2013' : String(d.place)),
    h('td', {}, String(d.points))));
  return section('p-dailies', t('profile.dailies'), h('div', { class: 'scroll' }, h('table', { class: 'results' },
    h('caption', {}, t('profile.dailiesCaption')),
    h('thead', {}, h('tr', {}, ['profile.col.day', 'home.game', 'col.state', 'profile.col.place', 'col.points'].map((k) => h('th', { scope: 'col' }, t(k))))),
    h('tbody', {}, rows))));
}

function arenas(app, reply) {
  if (!reply.arenas?.length) return null; // shown once the player has played an arena
  const rows = reply.arenas.map((a) => h('tr', {},
    h('td', {}, dayText(a.ended_ms)),
    h('th', { scope: 'row' }, a.name),
    h('td', {}, variantName(app, a.variant)),
    h('td', {}, String(a.place)), h('td', {}, String(a.points))));
  return section('p-arenas', t('profile.arenas'), h('div', { class: 'scroll' }, h('table', { class: 'results' },
    h('thead', {}, h('tr', {}, ['profile.col.day', 'profile.col.arena', 'home.game', 'profile.col.place', 'col.points'].map((k) => h('th', { scope: 'col' }, t(k))))),
    h('tbody', {}, rows))));
}

function recent(app, reply) {
  if (!reply.recent.length) return section('p-recent', t('profile.recent'), h('p', {}, t('profile.noRecent')));
  return section('p-recent', t('profile.recent'), h('ul', { class: 'recent' }, reply.recent.map((g) => h('li', {},
    h('a', { href: `/replay/${g.id}`, 'data-link': '' }, t('profile.replay', variantName(app, g.variant), dayText(g.ended_ms))),
    ' ', h('span', { class: 'small' }, t('profile.gameLine', t(`gamekind.${g.kind}`) === `gamekind.${g.kind}` ? g.kind : t(`gamekind.${g.kind}`), stateWords(g.state), clockText(g.elapsed_ms), g.moves))))));
}

function privacy(app, reply, rerender) {
  const box = h('input', { type: 'checkbox', id: 'profile-hidden', checked: reply.hidden, onchange: async () => {
    box.disabled = true;
    try {
      await app.conn.request({ type: 'profile_settings', hidden: box.checked });
      note.textContent = box.checked ? t('profile.nowHidden') : t('profile.nowShown');
    } catch (err) {
      box.checked = !box.checked;
      note.textContent = t('profile.notSaved', err.message);
    }
    box.disabled = false;
    rerender?.();
  } });
  const note = h('span', { role: 'status', class: 'small' });
  return h('p', { class: 'privacy' }, h('label', { for: 'profile-hidden' }, box, ` ${t('profile.hide')}`), ' ', note);
}

export async function profileScreen(app, name) {
  const element = h('section', { class: 'screen profile' });
  const fill = async () => {
    let reply;
    try {
      reply = await app.conn.request({ type: 'profile', name });
    } catch (err) {
      element.replaceChildren(h('h1', {}, t('nothere')), h('p', {}, err.code === 'not_found' ? t('profile.none', name) : err.message));
      return;
    }
    const title = h('h1', {}, t('profile.title', reply.player.name), reply.player.bot ? h('span', { class: 'badge' }, ` ${t('profile.bot')}`) : null);
    if (reply.hidden && !reply.mine) {
      element.replaceChildren(title, h('p', {}, t('profile.hidden', reply.player.name)));
      return;
    }
    const parts = [title, reply.mine ? privacy(app, reply) : null,
      ratings(app, reply), games(app, reply), dailies(app, reply), arenas(app, reply), recent(app, reply),
      h('p', {}, h('a', { href: '/boards', 'data-link': '', class: 'button' }, t('boards.title')))];
    element.replaceChildren(...parts.filter(Boolean));
  };
  await fill();
  return { element, resync: fill };
}
