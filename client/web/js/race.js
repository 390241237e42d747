// A race room: who is in and connected, the countdown, the player's own board (the largest), every
// other racer's progress in a strip beside it, a racer's board to watch (once the player's own
// game has ended, or at any time as a spectator), the standings, and the host's rematch.
//
// A spectator (``/race/CODE?as=spectator``) has no board of their own: the racer they pick by
// name is drawn in the large place instead, and followed into the rematch.

import { t } from './i18n.js';
import { Board } from './board.js';
import { dialect } from './dialect.js';
import { ENDED, GamePanel } from './game.js';
import { ratingBadge, resultsTable } from './daily.js';
import { dealWords } from './fairplay.js';
import { matchBox } from './racematch.js';
import { store } from './store.js';
import { announce, copyText, h, stateWords } from './ui.js';


function cardsIn(view) {
  return view.piles.reduce((n, p) => n + p.down + p.up.length, 0);
}

export async function raceScreen(app, code, role) {
  let room;
  try {
    room = (await app.conn.request({ type: 'join_room', code, role })).room;
  } catch (err) {
    const why = ({ not_found: t('race.noRoom'), race_in_progress: t('race.inProgress'), room_full: t('race.full') })[err.code] ?? err.message;
    return { element: h('section', { class: 'screen' }, h('h1', {}, t('race.title', code)), h('p', { class: 'error', role: 'alert' }, why),
      h('p', {}, h('a', { href: `/race/${code}?as=spectator`, 'data-link': '' }, t('race.watchInstead')), ' \u00b7 ', h('a', { href: '/', 'data-link': '' }, t('button.home')))) };
  }
  const me = app.player.id;
  store.room = room.code; // home offers the way back while the player is in it
  const s = {
    room, panel: null, gameId: null, progress: new Map(), standings: null, watching: null, watchBoard: null,
    countdownEnds: 0, timer: null, cardCount: 52,
  };
  const link = `${location.origin}/race/${room.code}`;
  const copied = h('span', { role: 'status' });
  const members = h('ul', { class: 'members', 'aria-label': t('race.members') });
  const controls = h('div', { class: 'room-controls' });
  const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'assertive', hidden: true });
  const ownSlot = h('div', { class: 'own' });
  const strip = h('ol', { class: 'progress', 'aria-label': t('race.racers') });
  const watchSlot = h('div', { class: 'watched' });
  const spectatorNote = h('p', { class: 'spectator-note' }, t('race.spectatorNote'));
  const standingsBox = h('section', { class: 'standings', hidden: true, 'aria-label': t('race.standings') });
  const message = h('p', { class: 'message', role: 'status' });
  const live = matchBox(app, room.code); // a best of 3 or 5 between the two racers
  // the room's facts and controls in one block: a short window sets it beside the board (app.css)
  const element = h('section', { class: 'screen race' }, h('div', { class: 'room-info' },
    h('div', { class: 'room-head' },
      h('h1', {}, t('race.title', room.code)),
      h('p', { class: 'share' }, t('race.invite'),
        h('input', { class: 'share-link', readonly: true, value: link, 'aria-label': t('race.link'), onfocus: (e) => e.target.select() }),
        h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(link)) ? t('copied') : t('copy.select'); } }, t('race.copyLink')), copied)),
    h('p', { class: 'room-state' }), members, controls, countdown, message, standingsBox, live.element),
    h('div', { class: 'race-area' }, ownSlot, h('aside', { class: 'strip', 'aria-label': t('race.progressTitle') }, strip, watchSlot)));
  const aside = element.querySelector('.strip');

  const isHost = () => s.room.host === me;
  const mine = () => s.room.players.find((p) => p.id === me);
  const myRole = () => mine()?.role ?? role;
  const spectating = () => myRole() === 'spectator';
  const ownEnded = () => s.panel && ENDED.has(s.panel.view.state);
  const say = (text) => { message.textContent = text; };

  /** A spectator's watched board takes the large place; a racer's sits in the strip. */
  function placeWatch() {
    element.classList.toggle('spectating', spectating());
    if (spectating()) {
      if (watchSlot.parentElement !== ownSlot) ownSlot.replaceChildren(spectatorNote, watchSlot);
      spectatorNote.hidden = s.watching !== null;
    } else if (watchSlot.parentElement !== aside) aside.append(watchSlot);
  }

  function drawRoom() {
    const r = s.room;
    placeWatch();
    const facts = [app.variants.get(r.variant)?.name ?? r.variant];
    if (r.seed !== undefined) facts.push(r.seed ? t('race.dealNumber', r.seed) : t('race.keyed'));
    if (r.hints !== undefined) facts.push(t(r.hints ? 'race.hintsOn' : 'race.hintsOff'));
    if (r.rated) facts.push(t('race.rated'));
    if (r.difficulty) facts.push(t(`race.winnable.${r.difficulty}`));
    if (r.boards !== undefined) facts.push(t(`race.boards.${r.boards}`));
    facts.push(t('race.limit', Math.round(r.time_limit_s / 60)), t(`room.${r.state}`));
    element.querySelector('.room-state').textContent = facts.join(' \u00b7 ');
    members.replaceChildren(...r.players.map((p) => {
      const canWatch = p.id !== me && (p.role ?? 'racer') === 'racer' && (r.state === 'racing' || r.state === 'over');
      const name = canWatch ? h('button', { type: 'button', class: 'linkish', onclick: () => watch(p.id), 'aria-label': t('race.watch', p.name) }, p.name) : h('span', { class: 'name' }, p.name);
      return h('li', { dataset: { player: String(p.id), connected: String(p.connected) } },
        h('span', { class: p.connected ? 'dot on' : 'dot', 'aria-label': t(p.connected ? 'race.connected' : 'race.notConnected'), role: 'img' }),
        ' ', name, p.rating ? ' ' : null, ratingBadge(p.rating),
        p.id === r.host ? h('span', { class: 'badge' }, t('race.host')) : null,
        p.role === 'spectator' ? h('span', { class: 'badge' }, t('race.spectator')) : null,
        p.bot ? h('span', { class: 'badge' }, t('race.bot')) : null,
        p.id === me ? h('span', { class: 'badge' }, t('race.you')) : null);
    }));
    const buttons = [];
    if (isHost() && (r.state === 'waiting' || r.state === 'over')) {
      const seed = h('input', { type: 'number', min: 1, max: 2147483647, placeholder: t('race.seedPlaceholder'), 'aria-label': t('race.seedLabel'), class: 'seed wide' });
      buttons.push(h('form', { class: 'inline', onsubmit: (e) => { e.preventDefault(); start(seed.value ? Number(seed.value) : null); } },
        seed, h('button', { type: 'submit' }, t(r.state === 'over' ? 'race.rematch' : 'race.start'))));
    } else if (r.state === 'waiting' || r.state === 'over') buttons.push(h('p', {}, t('race.hostStarts')));
    buttons.push(h('button', { type: 'button', onclick: leave }, t('race.leave')));
    controls.replaceChildren(...buttons);
    live.update(r);
    drawStrip();
  }

  function drawStrip() {
    const racers = s.room.players.filter((p) => (p.role ?? 'racer') === 'racer' && p.id !== me);
    strip.replaceChildren(...racers.map((p) => {
      const pr = s.progress.get(p.id);
      const share = pr ? Math.round((100 * pr.foundation) / s.cardCount) : 0;
      const bar = h('span', { class: 'bar' }, h('span', { class: 'fill' }));
      bar.firstChild.style.width = `${share}%`;
      return h('li', { dataset: { player: String(p.id), state: pr?.state ?? '' }, class: s.watching === p.id ? 'watching' : null },
        h('button', { type: 'button', class: 'linkish', onclick: () => watch(p.id) }, p.name),
        bar,
        h('span', { class: 'figures' }, pr ? t('race.progress', pr.foundation, pr.score, pr.ply, stateWords(pr.state)) : t('race.noMove')));
    }));
  }

  function mountGame(view) {
    s.panel?.destroy();
    s.gameId = view.id;
    s.cardCount = cardsIn(view);
    s.panel = new GamePanel(app, view, {
      kind: 'race', title: t('race.gameTitle', s.room.code), hints: s.room.hints !== false,
      endActions: () => [h('p', {}, t('race.pickToWatch'))],
      onEnded: () => { if (message.textContent === t('race.watchLater')) say(''); },
    });
    ownSlot.replaceChildren(s.panel.element);
  }

  function drawStandings(standings) {
    s.standings = standings;
    standingsBox.replaceChildren(h('h2', {}, t('race.standings')), resultsTable(standings, null, me, t('race.title', s.room.code)));
    standingsBox.hidden = false;
  }

  async function start(seed) {
    const request = { type: 'start_race', code: s.room.code };
    if (seed) request.seed = seed;
    try {
      await app.conn.request(request);
    } catch (err) {
      say(t('race.notStarted', err.message));
    }
  }

  async function leave() {
    try { await app.conn.request({ type: 'leave_room', code: s.room.code }); } catch { /* gone already */ }
    store.room = null;
    app.navigate('/');
  }

  async function watch(player) {
    if (!spectating() && s.room.state === 'racing' && !ownEnded()) {
      say(t('race.watchLater'));
      return;
    }
    try {
      const reply = await app.conn.request({ type: 'watch', code: s.room.code, player });
      s.watching = player;
      showWatched(reply.game);
      drawStrip();
      placeWatch();
    } catch (err) {
      say(err.code === 'race_in_progress' ? t('race.watchLater') : t('race.cannotWatch', err.message));
    }
  }

  function showWatched(view) {
    const name = s.room.players.find((p) => p.id === s.watching)?.name ?? t('race.aRacer');
    if (!s.watchBoard || s.watchBoard.view?.variant !== view.variant) {
      s.watchBoard?.destroy();
      const holder = h('div', { 'aria-label': t('race.board', name), role: 'region' });
      const info = app.variants.get(view.variant) ?? { id: view.variant };
      s.watchBoard = new Board(holder, { variant: info, layout: dialect.layout(info, view.piles.map((p) => p.id)) });
      watchSlot.replaceChildren(h('h2', { class: 'watching-title' }), holder);
    }
    if (!s.panel) s.cardCount = cardsIn(view);
    watchSlot.querySelector('.watching-title').textContent = t('race.watching', name, view.score, view.moves, stateWords(view.state), dealWords(view.deal));
    s.watchBoard.show(view);
  }

  function tickCountdown() {
    const left = s.countdownEnds - performance.now();
    if (left <= 0) {
      countdown.hidden = true;
      clearInterval(s.timer);
      return;
    }
    countdown.hidden = false;
    countdown.textContent = t('race.startingIn', Math.ceil(left / 1000));
  }

  async function findOwnGame() {
    const id = dialect.roomGame(s.room, me);
    // a RoomView that names the racers' games says it all (null: no game in this race)
    if (id || !dialect.has.games || s.room.players.some((p) => 'game' in p)) return id;
    try {
      const reply = await app.conn.request({ type: 'games', limit: 5 });
      return reply.games?.find((g) => g.kind === 'race')?.id ?? null;
    } catch {
      return null;
    }
  }

  async function catchUp() {
    if (spectating()) return;
    const id = (s.room.state === 'racing' || s.room.state === 'over' ? await findOwnGame() : null) ?? s.gameId;
    if (!id) return;
    try {
      const reply = await app.conn.request({ type: 'get_game', game: id });
      if (s.panel && s.panel.view.id === id) s.panel.offer(reply.game);
      else mountGame(reply.game);
    } catch { /* no game of ours in this race */ }
  }

  const screen = {
    element,
    key: (e) => s.panel?.key(e) ?? false,
    push(m) {
      if (live.push(m)) return;
      const code = m.type === 'room' ? m.room?.code : m.code;
      if (code !== undefined && code !== s.room.code) return; // another room of the player's
      switch (m.type) {
        case 'room':
          s.room = m.room;
          drawRoom();
          break;
        case 'race_countdown':
          s.countdownEnds = performance.now() + m.start_in_ms;
          s.standings = null;
          standingsBox.hidden = true;
          clearInterval(s.timer);
          s.timer = setInterval(tickCountdown, 100);
          tickCountdown();
          announce(t('race.startsIn', Math.round(m.start_in_ms / 1000)));
          break;
        case 'race_started': {
          const followed = spectating() ? s.watching : null;
          s.progress.clear();
          s.watching = null;
          s.watchBoard?.destroy();
          s.watchBoard = null;
          watchSlot.replaceChildren();
          countdown.hidden = true;
          if (m.game) mountGame(m.game);
          else if (!spectating()) ownSlot.replaceChildren(h('p', {}, t('race.sitOut')));
          s.room = { ...s.room, state: 'racing' };
          drawRoom();
          announce(t('race.started'));
          if (followed !== null) watch(followed); // a spectator follows the same racer into the rematch
          break;
        }
        case 'progress':
          s.progress.set(m.player, m);
          drawStrip();
          break;
        case 'race_over':
          drawStandings(m.standings);
          s.room = { ...s.room, state: 'over' };
          drawRoom();
          catchUp(); // our game's last view: timeout, and the key once revealed
          announce(t('race.over'));
          break;
        case 'game':
          if (m.player !== undefined && m.player === s.watching) showWatched(m.game);
          break;
        default:
          break;
      }
    },
    async resync() {
      try {
        s.room = (await app.conn.request({ type: 'join_room', code: s.room.code, role: myRole() })).room;
        drawRoom();
      } catch (err) {
        say(t('race.backOnline', err.message));
      }
      await catchUp();
      if (s.watching) watch(s.watching);
    },
    destroy() {
      clearInterval(s.timer);
      s.panel?.destroy();
      s.watchBoard?.destroy();
    },
  };
  drawRoom();
  await catchUp();
  return screen;
}
