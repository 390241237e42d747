// A race room: who is in and connected, the countdown, the player's own board (the largest), every
// other racer's progress in a strip beside it, a racer's board to watch (once the player's own
// game has ended, or at any time as a spectator), the standings, and the host's rematch.
//
// A spectator (``/race/CODE?as=spectator``) has no board of their own: the racer they pick by
// name is drawn in the large place instead, and followed into the rematch.

import { Board } from './board.js';
import { dialect } from './dialect.js';
import { ENDED, GamePanel } from './game.js';
import { resultsTable } from './daily.js';
import { dealWords } from './fairplay.js';
import { announce, copyText, h, stateWords } from './ui.js';

const ROOM_STATES = { waiting: 'waiting for the host to start', countdown: 'starting', racing: 'racing', over: 'race over' };

function cardsIn(view) {
  return view.piles.reduce((n, p) => n + p.down + p.up.length, 0);
}

export async function raceScreen(app, code, role) {
  let room;
  try {
    room = (await app.conn.request({ type: 'join_room', code, role })).room;
  } catch (err) {
    const why = { not_found: 'There is no room with that code.', race_in_progress: 'A race is on in that room: join it when it is over, or watch.', room_full: 'That room is full.' }[err.code] ?? err.message;
    return { element: h('section', { class: 'screen' }, h('h1', {}, `Race ${code}`), h('p', { class: 'error', role: 'alert' }, why),
      h('p', {}, h('a', { href: `/race/${code}?as=spectator`, 'data-link': '' }, 'Watch instead'), ' \u00b7 ', h('a', { href: '/', 'data-link': '' }, 'Home'))) };
  }
  const me = app.player.id;
  const s = {
    room, panel: null, gameId: null, progress: new Map(), standings: null, watching: null, watchBoard: null,
    countdownEnds: 0, timer: null, cardCount: 52,
  };
  const link = `${location.origin}/race/${room.code}`;
  const copied = h('span', { role: 'status' });
  const members = h('ul', { class: 'members', 'aria-label': 'Members' });
  const controls = h('div', { class: 'room-controls' });
  const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'assertive', hidden: true });
  const ownSlot = h('div', { class: 'own' });
  const strip = h('ol', { class: 'progress', 'aria-label': 'Racers' });
  const watchSlot = h('div', { class: 'watched' });
  const spectatorNote = h('p', { class: 'spectator-note' }, 'You are watching this room: pick a racer\u2019s name to see their board.');
  const standingsBox = h('section', { class: 'standings', hidden: true, 'aria-label': 'Standings' });
  const message = h('p', { class: 'message', role: 'status' });
  const element = h('section', { class: 'screen race' },
    h('div', { class: 'room-head' },
      h('h1', {}, `Race ${room.code}`),
      h('p', { class: 'share' }, 'Invite friends with this link: ',
        h('input', { class: 'share-link', readonly: true, value: link, 'aria-label': 'Room link', onfocus: (e) => e.target.select() }),
        h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(link)) ? ' copied' : ' select the link to copy it'; } }, 'Copy link'), copied)),
    h('p', { class: 'room-state' }), members, controls, countdown, message, standingsBox,
    h('div', { class: 'race-area' }, ownSlot, h('aside', { class: 'strip', 'aria-label': 'Race progress' }, strip, watchSlot)));
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
    if (r.seed !== undefined) facts.push(r.seed ? `deal #${r.seed}` : 'keyed deal');
    if (r.hints !== undefined) facts.push(`hints ${r.hints ? 'on' : 'off'}`);
    facts.push(`time limit ${Math.round(r.time_limit_s / 60)} min`, ROOM_STATES[r.state] ?? r.state);
    element.querySelector('.room-state').textContent = facts.join(' \u00b7 ');
    members.replaceChildren(...r.players.map((p) => {
      const canWatch = p.id !== me && (p.role ?? 'racer') === 'racer' && (r.state === 'racing' || r.state === 'over');
      const name = canWatch ? h('button', { type: 'button', class: 'linkish', onclick: () => watch(p.id), 'aria-label': `Watch ${p.name}` }, p.name) : h('span', { class: 'name' }, p.name);
      return h('li', { dataset: { player: String(p.id), connected: String(p.connected) } },
        h('span', { class: p.connected ? 'dot on' : 'dot', 'aria-label': p.connected ? 'connected' : 'not connected', role: 'img' }),
        ' ', name,
        p.id === r.host ? h('span', { class: 'badge' }, 'host') : null,
        p.role === 'spectator' ? h('span', { class: 'badge' }, 'spectator') : null,
        p.bot ? h('span', { class: 'badge' }, 'bot') : null,
        p.id === me ? h('span', { class: 'badge' }, 'you') : null);
    }));
    const buttons = [];
    if (isHost() && (r.state === 'waiting' || r.state === 'over')) {
      const seed = h('input', { type: 'number', min: 1, max: 2147483647, placeholder: 'deal # (optional)', 'aria-label': 'Deal number for the race', class: 'seed' });
      buttons.push(h('form', { class: 'inline', onsubmit: (e) => { e.preventDefault(); start(seed.value ? Number(seed.value) : null); } },
        seed, h('button', { type: 'submit' }, r.state === 'over' ? 'Rematch' : 'Start race')));
    } else if (r.state === 'waiting' || r.state === 'over') buttons.push(h('p', {}, 'The host starts the race.'));
    buttons.push(h('button', { type: 'button', onclick: leave }, 'Leave room'));
    controls.replaceChildren(...buttons);
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
        h('span', { class: 'figures' }, pr ? `${pr.foundation} home \u00b7 score ${pr.score} \u00b7 ${pr.ply} moves \u00b7 ${stateWords(pr.state)}` : 'no move yet'));
    }));
  }

  function mountGame(view) {
    s.panel?.destroy();
    s.gameId = view.id;
    s.cardCount = cardsIn(view);
    s.panel = new GamePanel(app, view, {
      kind: 'race', title: `race ${s.room.code}`, hints: s.room.hints !== false,
      endActions: () => [h('p', {}, 'Pick a racer\u2019s name to watch their board until the race ends.')],
    });
    ownSlot.replaceChildren(s.panel.element);
  }

  function drawStandings(standings) {
    s.standings = standings;
    standingsBox.replaceChildren(h('h2', {}, 'Standings'), resultsTable(standings, null, me, `Race ${s.room.code}`));
    standingsBox.hidden = false;
  }

  async function start(seed) {
    const request = { type: 'start_race', code: s.room.code };
    if (seed) request.seed = seed;
    try {
      await app.conn.request(request);
    } catch (err) {
      say(`The race did not start: ${err.message}`);
    }
  }

  async function leave() {
    try { await app.conn.request({ type: 'leave_room', code: s.room.code }); } catch { /* gone already */ }
    app.navigate('/');
  }

  async function watch(player) {
    if (!spectating() && s.room.state === 'racing' && !ownEnded()) {
      say('You can watch another racer once your own game has ended.');
      return;
    }
    try {
      const reply = await app.conn.request({ type: 'watch', code: s.room.code, player });
      s.watching = player;
      showWatched(reply.game);
      drawStrip();
      placeWatch();
    } catch (err) {
      say(err.code === 'race_in_progress' ? 'You can watch another racer once your own game has ended.' : `Cannot watch: ${err.message}`);
    }
  }

  function showWatched(view) {
    const name = s.room.players.find((p) => p.id === s.watching)?.name ?? 'a racer';
    if (!s.watchBoard || s.watchBoard.view?.variant !== view.variant) {
      s.watchBoard?.destroy();
      const holder = h('div', { 'aria-label': `${name}\u2019s board`, role: 'region' });
      const info = app.variants.get(view.variant) ?? { id: view.variant };
      s.watchBoard = new Board(holder, { variant: info, layout: dialect.layout(info, view.piles.map((p) => p.id)) });
      watchSlot.replaceChildren(h('h2', { class: 'watching-title' }), holder);
    }
    if (!s.panel) s.cardCount = cardsIn(view);
    watchSlot.querySelector('.watching-title').textContent = `Watching ${name}: score ${view.score}, ${view.moves} moves, ${stateWords(view.state)} \u00b7 deal ${dealWords(view.deal)}`;
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
    countdown.textContent = `Starting in ${Math.ceil(left / 1000)}`;
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
          announce(`The race starts in ${Math.round(m.start_in_ms / 1000)} seconds.`);
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
          else if (!spectating()) ownSlot.replaceChildren(h('p', {}, 'You sit this race out: pick a racer\u2019s name to watch once it is over.'));
          s.room = { ...s.room, state: 'racing' };
          drawRoom();
          announce('The race has started.');
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
          announce('The race is over.');
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
        say(`Back online, but the room answered: ${err.message}`);
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
