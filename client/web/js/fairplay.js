// A keyed deal shown and checked: the commitment from the start, the key once revealed, and the
// check anyone can make (rules.md, "Keyed deals": the commitment is SHA-256 of
// "patience-club/deal/v1|VARIANT|KEY").

import { sha256 } from './sha256.js';

export function commitmentOf(variant, key) {
  return sha256(`patience-club/deal/v1|${variant}|${key.toLowerCase()}`);
}

/** Whether ``key`` is the key the deal's commitment was made from. */
export function keyMatches(variant, deal) {
  return Boolean(deal?.key && deal?.commitment) && commitmentOf(variant, deal.key) === deal.commitment.toLowerCase();
}

/** The deal in a few words: "deal #617", "secret deal 48281e31…", "deal 48281e31…, key shown". */
export function dealWords(deal) {
  if (!deal) return 'deal unknown';
  if (deal.seed !== undefined && deal.seed !== null) return `deal #${deal.seed}`;
  const short = String(deal.commitment ?? '').slice(0, 8);
  return deal.key ? `keyed deal ${short}\u2026, key revealed` : `secret deal ${short}\u2026`;
}
