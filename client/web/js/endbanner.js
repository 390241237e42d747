// The end of a game, over the board where the player is looking, with what to do next: a win
// (with the time, the moves, whether it is the player's best for this game, and a line to share),
// a resign, the time running out, or a stuck game that says why and offers undo.

import { sendBox } from './challengelink.js';
import { dealWords } from './fairplay.js';
import { t } from './i18n.js';
import { RESIGNED, STUCK, TIMEOUT, WON } from './notation.js';
import { clockText, copyText, h } from './ui.js';

/** The words to share a solo game's result: "Patience Club · Freecell #617: won in 3:12, 87 moves". */
export function resultText(variant, view) {
  const result = view.state === WON ? t('share.won', clockText(view.elapsed_ms), view.moves) : t('share.score', view.score, view.max_score);
  return `Patience Club \u00b7 ${variant.name} ${dealWords(view.deal)}: ${result}`;
}

/** Fill ``banner`` for ``view``'s end; ``hooks``: undo(), resign(), endActions(view) (a daily's
 * or a race's own), stats() (a promise of the ``stats`` reply, for a personal best),
 * challenge(bestOf) (a promise of ``challenge_create``'s reply; absent where none is sent). Returns
 * whether there is an end to show. */
export function fillBanner(banner, view, variant, hooks) {
  const v = view;
  let line = null;
  let why = null;
  if (v.state === WON) line = t('end.won', clockText(v.elapsed_ms), v.moves);
  else if (v.state === RESIGNED) line = t('end.resigned', v.score, v.max_score);
  else if (v.state === TIMEOUT) line = t('end.timeout', v.score, v.max_score);
  else if (v.state === STUCK) { line = t('end.stuck'); why = t('end.stuckWhy'); }
  if (!line) return false;
  const button = (label, action) => h('button', { type: 'button', onclick: action }, label);
  const again = v.deal?.seed ? `/play/${v.variant}?seed=${v.deal.seed}` : v.deal?.key ? `/play/${v.variant}?key=${v.deal.key}` : null;
  let actions;
  const own = hooks.endActions?.(v);
  if (v.state === STUCK) actions = [button(t('button.undo'), hooks.undo), button(t('button.resign'), hooks.resign)];
  else if (own) actions = own;
  else {
    const copied = h('span', { role: 'status' });
    const text = resultText(variant, v);
    actions = [
      h('a', { href: `/play/${v.variant}`, 'data-link': '', class: 'button primary' }, t('button.newGame')),
      again ? h('a', { href: again, 'data-link': '', class: 'button' }, t('button.playAgain')) : null,
      button(t('daily.copy'), async () => { copied.textContent = (await copyText(text)) ? t('copied') : text; }),
      h('a', { href: '/', 'data-link': '', class: 'button' }, t('button.home')),
      copied,
    ];
  }
  // its replay, move by move, once it has ended (a stuck game has not)
  if (v.state !== STUCK && v.id) actions = [...actions, h('a', { href: `/replay/${encodeURIComponent(v.id)}`, 'data-link': '', class: 'button replay-link' }, t('replay.watch'))];
  // "Could I have won?" once the deal is shown (a numbered deal, or a keyed one revealed)
  if ((v.deal?.seed || v.deal?.key) && hooks.couldWin) actions = [...actions, button(t('could.ask'), hooks.couldWin)];
  const best = h('p', { class: 'end-best', hidden: true });
  // "Challenge a friend" to play this deal: a finished game on a secret deal (the server says
  // whether this game can be sent)
  const finished = v.state === WON || v.state === RESIGNED;
  const challenge = hooks.challenge && finished && v.deal?.commitment ? sendBox(hooks.challenge) : null;
  banner.dataset.state = v.state;
  banner.replaceChildren(...[h('p', { class: 'end-line' }, line), why ? h('p', { class: 'end-why' }, why) : null, best,
    h('div', { class: 'actions' }, actions), challenge].filter(Boolean));
  if (v.state === WON && hooks.stats) personalBest(best, v, hooks.stats);
  return true;
}

async function personalBest(box, view, stats) {
  try {
    const mine = (await stats()).variants?.find((s) => s.variant === view.variant);
    if (!mine) return;
    const words = [];
    if (mine.best_ms === view.elapsed_ms) words.push(t('end.bestTime'));
    if (mine.fewest_moves === view.moves) words.push(t('end.fewestMoves'));
    if (words.length) { box.textContent = words.join(' '); box.hidden = false; }
  } catch { /* no figures: nothing to say */ }
}
