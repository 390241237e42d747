// "Could I have won?": after a game whose deal is shown, the server's answer, and its winning
// line played back on the board step by step, each move in the board's names.

import { moveWords } from './cards.js';
import { t } from './i18n.js';
import { announce, h } from './ui.js';

/** The answer in words (the server's ``could_win`` reply). */
function answerWords(answer) {
  if (answer.deal === 'unwinnable') return t('could.unwinnable');
  if (answer.deal === 'unknown') return t('could.unknown');
  if (answer.ply === null) return t('could.won');
  return t('could.from', answer.ply, answer.line.length);
}

/** Ask ``could_win`` for ``panel``'s game and show the answer in ``box`` (over the end banner);
 * Previous and Next step the board through the line. */
export async function showHindsight(panel, box) {
  box.hidden = false;
  box.replaceChildren(h('p', { role: 'status' }, t('could.asking')));
  let answer;
  try {
    answer = await panel.app.conn.request({ type: 'could_win', game: panel.view.id });
  } catch (err) {
    box.replaceChildren(h('p', { class: 'problem' }, err.code === 'busy' ? t('refused.busy') : err.message));
    return;
  }
  const words = h('p', { class: 'could-answer' }, answerWords(answer));
  if (!answer.boards.length) { box.replaceChildren(words); return; }
  let step = 0;
  const status = h('p', { class: 'could-step', role: 'status' });
  const show = () => {
    const before = answer.boards[Math.max(0, step - 1)].piles;
    panel.board.show({ ...panel.view, piles: answer.boards[step].piles, legal: [] });
    status.textContent = step === 0 ? t('could.start', answer.line.length)
      : t('could.step', step, answer.line.length, moveWords(answer.line[step - 1], before, panel.variant));
    prev.disabled = step === 0;
    next.disabled = step === answer.boards.length - 1;
    announce(status.textContent);
  };
  const prev = h('button', { type: 'button', class: 'could-prev', onclick: () => { step -= 1; show(); } }, t('could.prev'));
  const next = h('button', { type: 'button', class: 'could-next', onclick: () => { step += 1; show(); } }, t('could.next'));
  const back = h('button', { type: 'button', onclick: () => { panel.board.show(panel.view); box.hidden = true; } }, t('could.close'));
  box.replaceChildren(words, status, h('div', { class: 'actions' }, prev, next, back));
  show();
}
