// Arenas: the list (``/arenas``: every arena to join, and a private one to create) and one arena
// (``/arena/CODE``): its clock, the live standings, the player's deal with its par time, time
// allowance and berserk button, and the final table once it is over (each deal's key, and every
// player's games as replays).
//
// The server decides everything (docs/protocol.md, "Arenas"): this screen shows its messages and
// sends the player's intents. Standings arrive as ``arena_standings`` pushes, a few a second at
// most, the same for every player; the player's own place as ``arena_place``, only when it
// changed; the end as ``arena_over``.

import { ENDED, GamePanel } from './game.js';
import { t } from './i18n.js';
import { announce, clockText, copyText, h } from './ui.js';

const FIRE = '\u{1F525}';

function variantName(app, id) {
  return app.variants.get(id)?.name ?? id;
}

function when(ms) {
  return new Date(ms).toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' });
}

function stateLine(arena, now = Date.now()) {
  if (arena.state === 'upcoming') return t('arena.startsIn', clockText(arena.starts_ms - now));
  if (arena.state === 'running') return t('arena.endsIn', clockText(arena.ends_ms - now));
  return t(`arena.state.${arena.state}`);
}

/** The standings as a table: rank, name (a flame when the next win is doubled), points,
 * deals played and won; the player's own row marked, shown below the top when outside it. */
export function standingsTable(top, me, myId) {
  const rows = [...top];
  if (me && !top.some((e) => e.player === me.player)) rows.push(me);
  const body = rows.map((e) => h('tr', { class: e.player === myId ? 'me' : null, dataset: { player: String(e.player) } },
    h('td', {}, String(e.rank)),
    h('th', { scope: 'row' }, e.name, e.fire ? h('span', { class: 'fire', title: t('arena.fire'), 'aria-label': t('arena.fire'), role: 'img' }, ` ${FIRE}`) : null),
    h('td', {}, String(e.points)), h('td', {}, String(e.played)), h('td', {}, String(e.wins))));
  return h('table', { class: 'arena-standings' },
    h('thead', {}, h('tr', {}, h('th', {}, t('arena.rank')), h('th', {}, t('arena.player')), h('th', {}, t('arena.points')), h('th', {}, t('arena.played')), h('th', {}, t('arena.wins')))),
    h('tbody', {}, body.length ? body : h('tr', {}, h('td', { colspan: 5 }, t('arena.nobody')))));
}

// -- the list --------------------------------------------------------------------------------

export async function arenasScreen(app) {
  const listBox = h('div', { class: 'arena-list' });
  const problem = h('p', { class: 'error', role: 'alert' });
  const variant = h('select', { id: 'arena-variant' }, [...app.variants.values()].map((v) => h('option', { value: v.id }, v.name)));
  const minutes = h('input', { id: 'arena-minutes', type: 'number', min: 5, max: 360, value: 30 });
  const startsIn = h('input', { id: 'arena-starts', type: 'number', min: 0, max: 1440, value: 0 });
  const name = h('input', { id: 'arena-name', maxlength: 64 });
  async function create(e) {
    e.preventDefault();
    const request = { type: 'arena_create', variant: variant.value, minutes: Number(minutes.value), starts_in_s: Number(startsIn.value) * 60 };
    if (name.value.trim()) request.name = name.value.trim();
    try {
      const reply = await app.conn.request(request);
      app.navigate(`/arena/${reply.arena.code}`);
    } catch (err) {
      problem.textContent = t('arena.notCreated', err.message);
    }
  }
  async function load() {
    try {
      const reply = await app.conn.request({ type: 'arenas' });
      const items = reply.arenas.map((a) => h('li', { dataset: { code: a.code, state: a.state } },
        h('a', { href: `/arena/${a.code}`, 'data-link': '' }, a.name),
        ` \u00b7 ${variantName(app, a.variant)} \u00b7 ${when(a.starts_ms)} \u00b7 ${t('arena.minutes', Math.round((a.ends_ms - a.starts_ms) / 60000))} \u00b7 ${stateLine(a)} \u00b7 ${t('arena.players', a.players)}`,
        a.private ? h('span', { class: 'badge' }, t('arena.private')) : null,
        a.joined ? h('span', { class: 'badge' }, t('arena.joined')) : null));
      listBox.replaceChildren(items.length ? h('ul', { class: 'arenas' }, items) : h('p', {}, t('arena.none')));
    } catch (err) {
      listBox.replaceChildren(h('p', { class: 'error' }, err.message));
    }
  }
  const element = h('section', { class: 'screen arenas-screen' },
    h('h1', {}, t('arena.listTitle')),
    h('p', {}, t('arena.pitch')),
    listBox,
    h('h2', {}, t('arena.createTitle')),
    h('form', { class: 'create-arena', onsubmit: create },
      h('label', { for: 'arena-variant' }, t('home.game')), variant,
      h('label', { for: 'arena-minutes' }, t('arena.length')), minutes,
      h('label', { for: 'arena-starts' }, t('arena.startsInLabel')), startsIn,
      h('label', { for: 'arena-name' }, t('arena.name')), name,
      h('button', { type: 'submit' }, t('arena.create')), problem),
    h('p', { class: 'small' }, t('arena.rules')));
  await load();
  const timer = setInterval(load, 15000);
  return { element, resync: load, destroy: () => clearInterval(timer) };
}

// -- one arena -------------------------------------------------------------------------------

export async function arenaScreen(app, code) {
  let table;
  try {
    table = await app.conn.request({ type: 'arena_table', code, limit: 10 });
  } catch (err) {
    const why = err.code === 'not_found' ? t('arena.noArena') : err.message;
    return { element: h('section', { class: 'screen' }, h('h1', {}, t('arena.title', code)), h('p', { class: 'error', role: 'alert' }, why), h('a', { href: '/arenas', 'data-link': '' }, t('arena.listTitle'))) };
  }
  const myId = app.player.id;
  const s = { arena: table.arena, deals: table.deals, top: table.entries, me: null, panel: null, deal: null, over: false };
  const head = h('div', { class: 'arena-head' });
  const clock = h('p', { class: 'arena-clock', role: 'timer' });
  const controls = h('div', { class: 'arena-controls' });
  const dealLine = h('p', { class: 'arena-deal', role: 'status' });
  const standingsBox = h('section', { class: 'arena-table', 'aria-label': t('arena.standings') });
  const gameSlot = h('div', { class: 'arena-game' });
  const finalBox = h('section', { class: 'arena-final', hidden: true });
  const message = h('p', { class: 'message', role: 'status' });
  const link = `${location.origin}/arena/${code}`;
  const copied = h('span', { role: 'status' });
  const element = h('section', { class: 'screen arena' },
    head, clock,
    h('p', { class: 'share' }, t('arena.invite'),
      h('input', { class: 'share-link', readonly: true, value: link, 'aria-label': t('arena.link'), onfocus: (e) => e.target.select() }),
      h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(link)) ? t('copied') : t('copy.select'); } }, t('race.copyLink')), copied),
    controls, message,
    h('div', { class: 'arena-area' }, h('div', { class: 'arena-play' }, dealLine, gameSlot), standingsBox),
    finalBox);
  const say = (text) => { message.textContent = text; };
  const running = () => s.arena.state === 'running';
  const playing = () => s.panel && !ENDED.has(s.panel.view.state);

  function drawHead() {
    const a = s.arena;
    head.replaceChildren(h('h1', {}, a.name),
      h('p', { class: 'arena-facts' }, [variantName(app, a.variant), when(a.starts_ms), t('arena.minutes', Math.round((a.ends_ms - a.starts_ms) / 60000)), t('arena.players', a.players), a.host ? t('arena.by', a.host) : null].filter(Boolean).join(' \u00b7 ')));
    clock.textContent = stateLine(a);
  }

  function drawControls() {
    const buttons = [];
    const a = s.arena;
    if (!a.joined && (a.state === 'running' || a.state === 'upcoming')) buttons.push(h('button', { type: 'button', class: 'primary', onclick: join }, t('arena.join')));
    if (a.joined && running() && !playing()) buttons.push(h('button', { type: 'button', class: 'primary', onclick: play }, s.deal ? t('arena.next') : t('arena.play')));
    if (a.joined && running() && playing() && s.panel.view.ply === 0 && !s.deal?.berserk) {
      buttons.push(h('button', { type: 'button', class: 'berserk', onclick: berserk, title: t('arena.berserkWhy') }, t('arena.berserk')));
    }
    if (a.joined && !s.over) buttons.push(h('button', { type: 'button', onclick: leave }, t('arena.leave')));
    buttons.push(h('a', { href: '/arenas', 'data-link': '' }, t('arena.listTitle')));
    controls.replaceChildren(...buttons);
  }

  function drawStandings() {
    standingsBox.replaceChildren(h('h2', {}, t('arena.standings')), standingsTable(s.top, s.me, myId));
  }

  function drawDeal() {
    const d = s.deal;
    if (!d || !s.panel) { dealLine.textContent = running() && s.arena.joined && !s.over ? t('arena.ready') : ''; return; }
    const left = d.allowance_ms - s.panel.elapsed();
    const words = [t('arena.dealNumber', d.seq + 1), t('arena.par', clockText(d.par_ms))];
    if (!ENDED.has(s.panel.view.state)) words.push(t('arena.timeLeft', clockText(left)));
    if (d.berserk) words.push(t('arena.berserking'));
    dealLine.textContent = words.join(' \u00b7 ');
  }

  function mount(reply) {
    s.deal = reply;
    if (s.panel?.view.id !== reply.game.id) {
      s.panel?.destroy();
      s.panel = new GamePanel(app, reply.game, {
        kind: 'arena', hints: false, title: t('arena.dealNumber', reply.seq + 1),
        onView: () => { drawControls(); drawDeal(); },
        endActions: () => (running() ? [h('button', { type: 'button', class: 'primary', onclick: play }, t('arena.next'))] : []),
      });
      gameSlot.replaceChildren(s.panel.element);
    } else s.panel.offer(reply.game);
    drawControls();
    drawDeal();
  }

  async function join() {
    try {
      const reply = await app.conn.request({ type: 'arena_join', code });
      adopt(reply);
      if (reply.game) await play();
    } catch (err) {
      say(err.code === 'not_ratable' ? t('arena.noBots') : t('arena.refused', err.message));
    }
  }

  async function play() {
    try {
      mount(await app.conn.request({ type: 'arena_play', code }));
      say('');
    } catch (err) {
      say(err.code === 'arena_not_running' ? t('arena.notRunning') : t('arena.refused', err.message));
    }
  }

  async function berserk() {
    try {
      mount(await app.conn.request({ type: 'arena_berserk', code }));
      announce(t('arena.berserking'));
    } catch (err) {
      say(t('arena.refused', err.message));
    }
  }

  async function leave() {
    try { await app.conn.request({ type: 'arena_leave', code }); } catch { /* not joined */ }
    app.navigate('/arenas');
  }

  function adopt(reply) {
    s.arena = reply.arena;
    s.deals = reply.deals;
    s.top = reply.top;
    s.me = reply.me;
    drawHead();
    drawControls();
    drawStandings();
    drawDeal();
  }

  async function showFinal() {
    s.over = true;
    element.classList.add('over');
    try {
      const final = await app.conn.request({ type: 'arena_table', code, limit: 50 });
      s.arena = final.arena;
      s.top = final.entries.slice(0, 10);
      const rows = final.entries.map((e) => h('tr', { class: e.player === myId ? 'me' : null },
        h('td', {}, String(e.rank)), h('th', { scope: 'row' }, e.name), h('td', {}, String(e.points)),
        h('td', {}, (e.results ?? []).map((r) => [h('a', { href: `/replay/${encodeURIComponent(r.game)}`, 'data-link': '', class: `result ${r.state}`, title: t('arena.resultWords', r.seq + 1, r.state, r.points) },
          `${r.points}${r.berserk ? '\u26A1' : ''}`), ' ']))));
      const keys = final.deals.map((d) => h('li', {}, t('arena.dealNumber', d.seq + 1), ` \u00b7 ${t('arena.par', clockText(d.par_ms))} \u00b7 `,
        h('code', {}, d.key ?? d.commitment)));
      finalBox.replaceChildren(h('h2', {}, t('arena.finalTable')),
        h('table', { class: 'arena-final-table' },
          h('thead', {}, h('tr', {}, h('th', {}, t('arena.rank')), h('th', {}, t('arena.player')), h('th', {}, t('arena.points')), h('th', {}, t('arena.games')))),
          h('tbody', {}, rows)),
        h('h3', {}, t('arena.dealsRevealed')), h('ol', { class: 'arena-keys' }, keys));
      finalBox.hidden = false;
      drawHead();
      drawControls();
      drawStandings();
    } catch (err) {
      say(err.message);
    }
  }

  const timer = setInterval(() => { clock.textContent = stateLine(s.arena); drawDeal(); }, 1000);
  const screen = {
    element,
    key: (e) => s.panel?.key(e) ?? false,
    push(m) {
      if (m.type === 'arena_standings' && m.code === code) {
        s.top = m.top;
        s.arena = { ...s.arena, players: m.players };
        drawStandings();
        drawHead();
      } else if (m.type === 'arena_place' && m.code === code) {
        s.me = m.me;
        drawStandings();
      } else if (m.type === 'arena_over' && m.arena?.code === code) {
        s.arena = m.arena;
        announce(t('arena.overNow'));
        if (s.panel) {
          // the deal's last view: out of time, and its key shown now
          app.conn.request({ type: 'get_game', game: s.panel.view.id }).then((r) => s.panel?.offer(r.game)).catch(() => {});
        }
        showFinal();
      }
    },
    async resync() {
      if (s.arena.joined && !s.over) {
        try { adopt(await app.conn.request({ type: 'arena_join', code })); } catch { /* as it was */ }
      }
      if (s.panel) {
        try { s.panel.offer((await app.conn.request({ type: 'get_game', game: s.panel.view.id })).game); } catch { /* keep it */ }
      }
    },
    destroy() {
      clearInterval(timer);
      s.panel?.destroy();
    },
  };
  drawHead();
  drawStandings();
  drawControls();
  if (s.arena.state === 'over' || s.arena.state === 'cancelled') await showFinal();
  else if (s.arena.joined) await join();
  return screen;
}
