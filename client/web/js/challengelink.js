// The link of a challenge and the box that offers it (the end banner's "Challenge a friend" and
// the challenge page's own), apart from challenge.js so that the end banner needs no game page.

import { t } from './i18n.js';
import { copyText, h } from './ui.js';

/** The address of a challenge: the link to send. */
export function challengeLink(id) {
  return `${location.origin}/challenge/${encodeURIComponent(id)}`;
}

/** "Send this link to a friend" with its copy button (the banner's and this page's). */
export function linkBox(id) {
  const link = challengeLink(id);
  const copied = h('span', { role: 'status' });
  return h('div', { class: 'challenge-share' },
    h('p', {}, t('challenge.sendLink')),
    h('div', { class: 'inline' },
      h('input', { class: 'challenge-link', readonly: true, value: link, 'aria-label': t('challenge.link'), onfocus: (e) => e.target.select() }),
      h('button', { type: 'button', onclick: async () => { copied.textContent = (await copyText(link)) ? t('copied') : t('copy.select'); } }, t('challenge.copyLink')),
      copied),
    h('p', {}, h('a', { href: `/challenge/${encodeURIComponent(id)}`, 'data-link': '' }, t('challenge.follow'))));
}

/** The end banner's "Challenge a friend": a match's length and the button; once sent, the link.
 * ``send(bestOf)`` is the ``challenge_create`` request's promise. */
export function sendBox(send) {
  const box = h('div', { class: 'challenge-send' });
  const length = h('select', { class: 'challenge-best-of', 'aria-label': t('challenge.bestOf') },
    [1, 3, 5].map((n) => h('option', { value: String(n) }, t('challenge.bestOfN', n))));
  const note = h('span', { class: 'challenge-note', role: 'status' });
  const button = h('button', { type: 'button', class: 'challenge-button', onclick: async () => {
    button.disabled = true;
    try {
      const reply = await send(Number(length.value));
      box.replaceChildren(linkBox(reply.challenge.id));
      box.querySelector('input')?.focus();
    } catch (err) {
      note.textContent = ` ${err.message || err.code}`;
      button.disabled = false;
    }
  } }, t('challenge.send'));
  box.append(button, ' ', length, note);
  return box;
}
