// A challenge, at /challenge/ID (docs/protocol.md, "Challenges"): race a friend who is not
// online. The friend's landing ("alice challenges you", then Play), their game on the same deal
// with the ghost line under its header (where the challenger was at the same time: moves and
// cards home, asked of the server every second, never ahead), the results side by side once the
// friend's game has ended (each game openable as a replay), the match's running score, and the
// rematch: the next round, on a new deal, which its asker plays first. The challenger sees the
// same page: the link to send while it waits, the result when it comes (a push).

import { linkBox } from './challengelink.js';
import { GamePanel } from './game.js';
import { t } from './i18n.js';
import { PLAYING } from './notation.js';
import { announce, clockText, h, stateWords } from './ui.js';

const GHOST_EVERY_MS = 1000;
/** A challenge's states (ChallengeView's ``state``). */
const SETTING = 'setting';
const OPEN = 'open';
const ANSWERING = PLAYING; // the friend is playing it
const DONE = 'done';

/** What a refusal of a challenge request says, in words. */
function refusal(err) {
  if (err.code === 'not_found') return t('challenge.none');
  return err.message || err.code;
}

/** The match's running score: "Best of 3 · alice 1 – 0 bob · 1 draw", and its winner once over. */
export function matchLine(match) {
  const second = match.second_name ?? '?';
  const bits = [t('challenge.bestOfN', match.best_of), `${match.first_name} ${match.first_wins} \u2013 ${match.second_wins} ${second}`];
  if (match.draws) bits.push(t('challenge.draws', match.draws));
  let end = '';
  if (match.state === 'over') {
    const winner = match.winner === match.first ? match.first_name : match.winner === match.second ? second : null;
    end = winner ? t('challenge.matchWon', winner) : t('challenge.matchDrawn');
  }
  return h('p', { class: 'match-score', dataset: { state: match.state } }, bits.join(' \u00b7 '), end ? ` \u00b7 ${end}` : '');
}

/** The two results side by side: a column each, a row per figure, each game's replay. */
export function resultsSide(c) {
  const sides = [c.challenger_result, c.opponent_result];
  const row = (label, cell) => h('tr', {}, h('th', { scope: 'row' }, label), sides.map((s) => h('td', {}, s ? cell(s) : '\u2014')));
  const winner = c.result === 'challenger' ? c.challenger_name : c.result === 'opponent' ? c.opponent_name : null;
  return h('div', { class: 'challenge-result' },
    h('p', { class: 'outcome' }, winner ? t('challenge.wins', winner) : t('challenge.draw')),
    h('table', { class: 'side-by-side' },
      h('caption', {}, t('challenge.sideBySide')),
      h('thead', {}, h('tr', {}, h('td', {}), sides.map((s, i) => h('th', { scope: 'col' }, s?.name ?? (i ? c.opponent_name : c.challenger_name) ?? '?')))),
      h('tbody', {},
        row(t('challenge.result'), (s) => stateWords(s.state)),
        row(t('challenge.time'), (s) => clockText(s.elapsed_ms)),
        row(t('challenge.moves'), (s) => String(s.moves)),
        row(t('challenge.home'), (s) => String(s.home)),
        row(t('challenge.undos'), (s) => String(s.undos)),
        row(t('challenge.hints'), (s) => String(s.hints)),
        row(t('challenge.replay'), (s) => h('a', { href: `/replay/${encodeURIComponent(s.game)}`, 'data-link': '', class: 'replay-link' }, t('replay.watch'))))),
    c.ranked === false ? h('p', { class: 'unranked' }, t(`challenge.unranked.${c.unranked}`)) : null);
}

export async function challengeScreen(app, id) {
  const me = app.player.id;
  let c;
  try {
    c = (await app.conn.request({ type: 'challenge_get', challenge: id })).challenge;
  } catch (err) {
    return { element: h('section', { class: 'screen' }, h('h1', {}, t('challenge.title')), h('p', { class: 'error', role: 'alert' }, refusal(err)),
      h('a', { href: '/', 'data-link': '' }, t('button.home'))) };
  }
  const s = { c, panel: null, ghostTimer: null, gameId: null };
  const head = h('div', { class: 'challenge-head' });
  const body = h('div', { class: 'challenge-body' });
  const message = h('p', { class: 'message', role: 'status' });
  const gameSlot = h('div', { class: 'challenge-game' });
  const element = h('section', { class: 'screen challenge' }, head, message, body, gameSlot);
  const variantName = () => app.variants.get(s.c.variant)?.name ?? s.c.variant;
  const challenger = () => s.c.challenger === me;
  const answerer = () => s.c.opponent === me;

  function drawHead() {
    const c = s.c;
    head.replaceChildren(
      h('h1', {}, challenger() ? t('challenge.yours', variantName()) : t('challenge.from', c.challenger_name, variantName())),
      h('p', { class: 'round' }, t('challenge.round', c.round)),
      matchLine(c.match));
  }

  function say(text) { message.textContent = text; }

  async function rematch() {
    try {
      const reply = await app.conn.request({ type: 'challenge_rematch', challenge: s.c.id });
      app.navigate(`/challenge/${encodeURIComponent(reply.challenge.id)}`);
    } catch (err) { say(refusal(err)); }
  }

  function drawBody() {
    const c = s.c;
    const parts = [];
    if (c.state === DONE) {
      parts.push(resultsSide(c));
      if (challenger() || answerer()) {
        parts.push(h('div', { class: 'actions' },
          h('button', { type: 'button', class: 'primary rematch', onclick: rematch }, c.match.state === 'over' ? t('challenge.newMatch') : t('challenge.rematch')),
          h('a', { href: '/', 'data-link': '', class: 'button' }, t('button.home'))));
      }
    } else if (challenger()) {
      if (c.state === SETTING) parts.push(h('p', {}, t('challenge.settingMine', c.opponent_name ?? '?')));
      else if (c.state === OPEN) parts.push(h('p', {}, c.opponent_name ? t('challenge.waitingFor', c.opponent_name) : t('challenge.waiting')), linkBox(c.id));
      else parts.push(h('p', {}, t('challenge.playing', c.opponent_name ?? '?')));
    } else if (c.state === SETTING) {
      parts.push(h('p', {}, t('challenge.settingTheirs', c.challenger_name)));
    } else if (c.state === OPEN && (!c.opponent || answerer())) {
      parts.push(h('p', { class: 'invitation' }, t('challenge.invite', c.challenger_name, variantName())),
        h('p', { class: 'small' }, t('challenge.rules')),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary accept', onclick: accept }, t('challenge.play'))));
    } else if (!answerer()) {
      parts.push(h('p', {}, t('challenge.taken', c.opponent_name ?? '?')));
    }
    body.replaceChildren(...parts);
  }

  function draw() {
    drawHead();
    drawBody();
  }

  // -- the game ----------------------------------------------------------------------------

  async function accept() {
    try {
      const reply = await app.conn.request({ type: 'challenge_accept', challenge: s.c.id });
      s.c = reply.challenge;
      draw();
      play(reply.game, true);
    } catch (err) { say(refusal(err)); }
  }

  /** The player's own game of this round on screen; with the ghost when they answer it. */
  function play(view, ghosted) {
    s.panel?.destroy();
    stopGhost();
    s.gameId = view.id;
    const panel = new GamePanel(app, view, {
      kind: s.c.kind ?? 'solo', // what the header says of when the key shows
      challenge: false,
      title: t('challenge.gameTitle'),
      endActions: () => [h('a', { href: '/', 'data-link': '', class: 'button' }, t('button.home'))],
      onEnded: () => { stopGhost(); setTimeout(refresh, 300); },
    });
    s.panel = panel;
    gameSlot.replaceChildren(panel.element);
    if (ghosted) startGhost(panel);
  }

  function startGhost(panel) {
    const line = h('p', { class: 'ghost-line', role: 'status', 'aria-live': 'off' }, t('ghost.waiting', s.c.challenger_name));
    panel.header.after(line);
    const ask = async () => {
      if (panel.view.state !== PLAYING) return;
      try {
        const g = await app.conn.request({ type: 'challenge_ghost', challenge: s.c.id });
        line.dataset.state = g.state;
        line.textContent = g.state === PLAYING
          ? t('ghost.line', s.c.challenger_name, g.moves, g.home)
          : t('ghost.ended', s.c.challenger_name, stateWords(g.state), g.moves, g.home);
      } catch { /* offline: the line keeps what it showed */ }
    };
    ask();
    s.ghostTimer = setInterval(ask, GHOST_EVERY_MS);
  }

  function stopGhost() {
    if (s.ghostTimer) clearInterval(s.ghostTimer);
    s.ghostTimer = null;
  }

  async function refresh() {
    try {
      adopt((await app.conn.request({ type: 'challenge_get', challenge: s.c.id })).challenge);
    } catch { /* kept */ }
  }

  function adopt(c) {
    const was = s.c.state;
    s.c = c;
    draw();
    if (was !== DONE && c.state === DONE) announce(element.querySelector('.outcome')?.textContent ?? '');
  }

  /** What this player plays now, if anything: their round being set, or the one they answer. */
  async function resume() {
    const c = s.c;
    try {
      if (challenger() && c.state === SETTING && c.game) {
        play((await app.conn.request({ type: 'get_game', game: c.game })).game, false);
      } else if (answerer() && c.state === ANSWERING) {
        const reply = await app.conn.request({ type: 'challenge_accept', challenge: c.id });
        play(reply.game, true);
      } else if (answerer() && c.state === DONE && c.game) {
        play((await app.conn.request({ type: 'get_game', game: c.game })).game, false);
      }
    } catch (err) { say(refusal(err)); }
  }

  draw();
  await resume();
  return {
    element,
    key: (e) => s.panel?.key(e) ?? false,
    push: (msg) => {
      if (msg.type === 'challenge' && msg.challenge.id === s.c.id) adopt(msg.challenge);
      else if (msg.type === 'challenge' && msg.challenge.match.id === s.c.match.id && msg.challenge.state === OPEN) {
        say(t('challenge.nextOpen', msg.challenge.challenger_name));
        body.append(h('p', {}, h('a', { href: `/challenge/${encodeURIComponent(msg.challenge.id)}`, 'data-link': '', class: 'button primary' }, t('challenge.playNext'))));
      }
    },
    resync: async () => {
      await refresh();
      if (s.gameId && s.panel) {
        try { s.panel.offer((await app.conn.request({ type: 'get_game', game: s.gameId })).game); } catch { /* kept */ }
      }
    },
    destroy: () => { stopGhost(); s.panel?.destroy(); },
  };
}
