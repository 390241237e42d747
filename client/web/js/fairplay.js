// A keyed deal shown and checked: the commitment from the start, the key once revealed, and the
// check anyone can make (docs/rules.md, "Keyed deals": the commitment is SHA-256 of the UTF-8 text
// "patience-club/deal/v1|VARIANT|KEY", in lower-case hex).
//
// The browser computes it with WebCrypto (crypto.subtle), which exists only in a secure context
// (https, or the loopback addresses); on a plain-http address elsewhere the SHA-256 written out
// in sha256.js computes the same digest. The check needs nothing from the server but the two
// strings it already showed.

import { t } from './i18n.js';
import { sha256 } from './sha256.js';

const HEX = /^[0-9a-f]{64}$/;

function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The text whose SHA-256 is the commitment of ``key`` for ``variant``. */
export function committedText(variant, key) {
  return `patience-club/deal/v1|${variant}|${key.toLowerCase()}`;
}

/** The commitment of ``key`` for ``variant`` (a promise of 64 lower-case hex digits), and how it
 * was computed: "WebCrypto" or "script" (outside a secure context). */
export async function commitmentOf(variant, key, subtle = globalThis.crypto?.subtle) {
  const text = committedText(variant, key);
  if (subtle) return { digest: hex(await subtle.digest('SHA-256', new TextEncoder().encode(text))), by: 'WebCrypto' };
  return { digest: sha256(text), by: 'script' };
}

/** Whether the revealed ``deal.key`` is the key ``deal.commitment`` was made from. */
export async function checkDeal(variant, deal, subtle = globalThis.crypto?.subtle) {
  if (!deal?.key || !deal?.commitment) return { matches: false, digest: null, by: null };
  const { digest, by } = await commitmentOf(variant, deal.key, subtle);
  return { matches: digest === deal.commitment.toLowerCase(), digest, by };
}

/** The deal in a few words: "#617", "keyed 48281e31…" (the start of its commitment). */
export function dealWords(deal) {
  if (!deal) return t('deal.unknown');
  if (deal.seed !== undefined && deal.seed !== null) return `#${deal.seed}`;
  return t('deal.keyed', String(deal.commitment ?? '').slice(0, 8));
}

/**
 * The command that checks a revealed deal without a browser: ``patience-club verify VARIANT
 * COMMITMENT KEY``, with ``--option NAME=VALUE`` for each option that differs from the
 * variant's defaults (the deal printed depends on them). Null unless both are 64 hex digits
 * (nothing else goes into a command a player pastes into a shell).
 */
export function verifyCommand(variant, deal, options = {}, defaults = {}) {
  const commitment = String(deal?.commitment ?? '').toLowerCase();
  const key = String(deal?.key ?? '').toLowerCase();
  if (!HEX.test(commitment) || !HEX.test(key) || !/^[a-z_]+$/.test(variant)) return null;
  const extra = Object.entries(options ?? {})
    .filter(([name, value]) => /^[a-z_]+$/.test(name) && (typeof value === 'boolean' || Number.isInteger(value)) && defaults[name] !== value)
    .map(([name, value]) => ` --option ${name}=${String(value)}`);
  return `patience-club verify ${variant} ${commitment} ${key}${extra.join('')}`;
}

/** When a keyed deal's key shows, for the kind of game it is. */
export function revealWords(kind) {
  if (kind === 'race') return t('deal.revealRace');
  if (kind === 'arena') return t('deal.revealArena');
  if (kind === 'daily' || kind === 'practice') return t('deal.revealDaily');
  return t('deal.revealSolo');
}
