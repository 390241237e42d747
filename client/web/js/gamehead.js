// A game's header: its name and its deal. A numbered deal is "#617"; a keyed deal is a secret
// deal, named by the start of its commitment, with "verify" to open what the commitment is and
// the whole of it (the 64 digits stay folded away: on a phone they took four lines), and when its
// key shows; once revealed, the key on one line with a check made in the browser, and under
// "verify" the command that makes the check anywhere. (Playing the deal again is offered by the
// end of the game.)

import { checkDeal, dealWords, revealWords, verifyCommand } from './fairplay.js';
import { t } from './i18n.js';
import { announce, copyText, h } from './ui.js';

/** The header's elements for ``view`` of ``variant`` (a VariantInfo), a game of ``kind``. */
export function gameHead(view, variant, kind, title) {
  const deal = view.deal ?? {};
  const name = h('h2', {}, `${variant.name}${title ? ` \u00b7 ${title}` : ''}`);
  const dealLine = h('p', { class: 'deal' }, t('deal', dealWords(deal)));
  const parts = [name, dealLine];
  if (deal.commitment) {
    if (!deal.key) dealLine.append(h('span', { class: 'reveal' }, ` \u00b7 ${t('deal.secret')}: ${revealWords(kind)} `));
    const panel = h('div', { class: 'verify-panel', id: `verify-${view.id}`, hidden: true },
      h('p', {}, t('deal.explain')),
      h('p', { class: 'commitment' }, `${t('deal.commitment')} ${deal.commitment}`),
      deal.key ? commandLine(view, deal, variant) : null);
    const toggle = h('button', { type: 'button', class: 'linkish verify-toggle', 'aria-expanded': 'false', 'aria-controls': panel.id, onclick: () => {
      panel.hidden = !panel.hidden;
      toggle.setAttribute('aria-expanded', String(!panel.hidden));
    } }, t('deal.verify'));
    dealLine.append(' ', h('span', { class: 'verify-box' }, toggle, panel));
  }
  if (deal.key && deal.commitment) parts.push(keyLine(view, deal));
  return parts;
}

/** The revealed key on one line, and the check made in the browser. */
function keyLine(v, deal) {
  const result = h('span', { class: 'check-result', role: 'status' });
  const check = async () => {
    result.textContent = t('deal.checking');
    const { matches, digest, by } = await checkDeal(v.variant, deal);
    result.dataset.matches = String(matches);
    result.textContent = matches ? t('deal.matches', by) : t('deal.differs', digest);
    announce(result.textContent);
  };
  return h('div', { class: 'fairplay' },
    h('p', { class: 'deal' }, h('span', { class: 'deal-key' }, `${t('deal.key')} ${deal.key}`), ' ',
      h('button', { type: 'button', onclick: check }, t('deal.check')), ' ', result));
}

/** The command that checks the deal anywhere, to copy. */
function commandLine(v, deal, variant) {
  const command = verifyCommand(v.variant, deal, v.options, variant.options ?? {});
  if (!command) return null;
  const copied = h('span', { role: 'status' });
  return h('p', { class: 'verify' }, t('deal.commandIntro'),
    h('input', { class: 'verify-command', readonly: true, value: command, 'aria-label': t('deal.commandLabel'), onfocus: (e) => e.target.select() }), ' ',
    h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(command)) ? t('copied') : t('copy.select'); } }, t('deal.copyCommand')), copied);
}
