// A live match in a race room (docs/protocol.md, "Challenges", live matches): with two racers,
// either starts a best of 3 or 5; each race between them is then a round, and the room shows the
// running score and the last round's two games side by side (pushed: ``match``, ``challenge``).

import { matchLine, resultsSide } from './challenge.js';
import { t } from './i18n.js';
import { h } from './ui.js';

/** The room's match box: ``update(room)`` on each room change, ``push(message)`` for pushes. */
export function matchBox(app, code) {
  const element = h('section', { class: 'race-match', 'aria-label': t('match.title') });
  const s = { match: null, last: null, room: null, problem: '' };

  async function start(bestOf) {
    try {
      s.match = (await app.conn.request({ type: 'match_start', room: code, best_of: bestOf })).match;
      s.problem = '';
    } catch (err) {
      s.problem = err.message || err.code;
    }
    draw();
  }

  function draw() {
    const room = s.room;
    if (!room) return;
    const racers = room.players.filter((p) => (p.role ?? 'racer') === 'racer');
    const mine = racers.some((p) => p.id === app.player.id);
    const parts = [];
    if (s.match) parts.push(matchLine(s.match));
    if (s.last) parts.push(resultsSide(s.last));
    const startable = mine && racers.length === 2 && !racers.some((p) => p.bot) && (!s.match || s.match.state === 'over');
    if (startable) {
      parts.push(h('p', { class: 'inline' }, t('match.offer'), ' ',
        h('button', { type: 'button', onclick: () => start(3) }, t('challenge.bestOfN', 3)), ' ',
        h('button', { type: 'button', onclick: () => start(5) }, t('challenge.bestOfN', 5))));
    }
    if (s.problem) parts.push(h('p', { class: 'error', role: 'alert' }, s.problem));
    element.hidden = !parts.length;
    element.replaceChildren(...parts);
  }

  // a match already being played here (a reload): the latest round of one of this room's
  async function recall() {
    try {
      const listed = (await app.conn.request({ type: 'challenges', limit: 20 })).challenges;
      const found = listed.find((c) => c.match.id.startsWith(`${code}-`));
      if (found && !s.match) { s.match = found.match; s.last = found; draw(); }
    } catch { /* none */ }
  }
  recall();

  return {
    element,
    update(room) { s.room = room; draw(); },
    push(m) {
      if (m.type === 'match' && m.room === code) { s.match = m.match; draw(); return true; }
      if (m.type === 'challenge' && m.challenge.match.id.startsWith(`${code}-`)) {
        s.match = m.challenge.match;
        s.last = m.challenge;
        draw();
        return true;
      }
      return false;
    },
  };
}
