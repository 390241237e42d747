// Season boards (/boards): points per daily over this week, this month or all time, for one game
// or every game together, and each game's rating board; the asker's own place with its true rank.
// The day's board is the leaderboard screen (daily.js), which also opens the daily archive.

import { t } from './i18n.js';
import { ratingBadge } from './daily.js';
import { h, playerLink } from './ui.js';

export const PERIODS = ['week', 'month', 'all', 'rating'];

function href(period, variant) {
  const query = new URLSearchParams({ period });
  if (variant) query.set('variant', variant);
  return `/boards?${query}`;
}

function seasonRow(entry, mine) {
  return h('tr', { class: mine ? 'me' : null, 'aria-current': mine ? 'true' : null },
    h('td', {}, String(entry.rank)),
    h('th', { scope: 'row' }, playerLink(entry.name), entry.rating ? ' ' : null, ratingBadge(entry.rating)),
    h('td', {}, String(entry.points)),
    h('td', {}, String(entry.dailies)),
    h('td', {}, String(entry.wins)));
}

function ratingRow(entry, mine) {
  return h('tr', { class: mine ? 'me' : null, 'aria-current': mine ? 'true' : null },
    h('td', {}, String(entry.rank)),
    h('th', { scope: 'row' }, playerLink(entry.name)),
    h('td', {}, ratingBadge(entry.rating)),
    h('td', {}, String(entry.games)));
}

function table(reply, me, playerId, caption, columns, row) {
  const rows = reply.entries.map((e) => row(e, e.player === playerId));
  if (me && !reply.entries.some((e) => e.player === me.player)) rows.push(row(me, true));
  return h('table', { class: 'results season' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, t(c))))),
    h('tbody', {}, rows));
}

async function load(app, box, period, variant) {
  const name = variant ? app.variants.get(variant)?.name ?? variant : t('boards.every');
  try {
    if (period === 'rating') {
      const reply = await app.conn.request({ type: 'ratings', variant, limit: 50 });
      const caption = t('boards.ratingCaption', name);
      box.replaceChildren(
        h('p', { class: 'my-place' }, reply.me ? t('boards.place', reply.me.rank) : t('boards.noRating')),
        reply.entries.length ? table(reply, reply.me, app.player.id, caption, ['col.rank', 'col.name', 'col.rating', 'col.rated'], ratingRow) : h('p', {}, t('boards.empty')));
      return;
    }
    const request = { type: 'season', period, limit: 50 };
    if (variant) request.variant = variant;
    const reply = await app.conn.request(request);
    const span = reply.first ? t('boards.span', reply.first, reply.last) : t('boards.allTime');
    const caption = t('boards.caption', name, t(`boards.period.${period}`), span);
    box.replaceChildren(
      h('p', { class: 'span' }, span),
      h('p', { class: 'my-place' }, reply.me ? t('boards.placePoints', reply.me.rank, reply.me.points) : t('boards.noPoints')),
      reply.entries.length ? table(reply, reply.me, app.player.id, caption, ['col.rank', 'col.name', 'col.points', 'col.dailies', 'col.wins'], seasonRow) : h('p', {}, t('boards.empty')));
  } catch (err) {
    box.replaceChildren(h('p', { class: 'error' }, t('boards.failed', err.message)));
  }
}

export async function boardsScreen(app, query) {
  const period = PERIODS.includes(query.get('period')) ? query.get('period') : 'week';
  const variants = [...app.variants.values()];
  let variant = app.variants.has(query.get('variant')) ? query.get('variant') : '';
  if (period === 'rating' && !variant) variant = variants[0]?.id ?? '';
  const periods = h('nav', { class: 'tabs periods', 'aria-label': t('boards.periods') },
    PERIODS.map((p) => h('a', { href: href(p, variant), 'data-link': '', 'aria-current': p === period ? 'page' : null }, t(`boards.period.${p}`))),
    h('a', { href: `/leaderboard/${variant || variants[0]?.id}`, 'data-link': '' }, t('boards.today')));
  const games = h('nav', { class: 'tabs', 'aria-label': t('home.games') },
    period === 'rating' ? null : h('a', { href: href(period, ''), 'data-link': '', 'aria-current': variant ? null : 'page' }, t('boards.every')),
    variants.map((v) => h('a', { href: href(period, v.id), 'data-link': '', 'aria-current': v.id === variant ? 'page' : null }, v.name)));
  const box = h('section', { class: 'leaderboard', 'aria-live': 'polite' });
  const element = h('section', { class: 'screen boards' },
    h('h1', {}, t('boards.title')),
    periods, games, box,
    h('p', { class: 'small' }, period === 'rating' ? t('boards.ratingRule') : t('boards.rule')));
  await load(app, box, period, variant);
  return { element, resync: () => load(app, box, period, variant) };
}
