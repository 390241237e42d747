// Today's server speaks protocol 1. This module is the whole difference, and goes (with its one
// import in main.js) once the server speaks protocol 2:
// - hello says protocol 1;
// - a GameView has ``seed`` where protocol 2 has ``deal: {seed}``;
// - VariantInfo has no ``layout``: it is derived from the pile ids as client/layout.py does;
// - a daily has no practice request: practice is a numbered game on the daily's seed, which
//   protocol 1 shows;
// - RoomView's players carry ``game``, their game in the current race;
// - there is no ``games`` request (the list of a player's own games).

import { dialect } from './dialect.js';

function derivedLayout(variant, pileIds) {
  const of = (kind) => pileIds.filter((id) => id[0] === kind);
  const found = of('f');
  const reserves = of('r');
  const stock = pileIds.filter((id) => id === 's' || id === 'w');
  const fan = {};
  if (variant === 'osmosis') {
    for (const id of stock) fan[id] = 'stack';
    for (const id of [...reserves, ...found]) fan[id] = 'right';
    const rows = [stock, ...reserves.map((r, i) => [r, found[i]].filter(Boolean))];
    return { rows, fan };
  }
  const top = [...stock, ...reserves];
  if (top.length && found.length) top.push('');
  top.push(...found);
  for (const id of top) if (id) fan[id] = 'stack';
  for (const id of of('t')) fan[id] = 'down';
  return { rows: [top, of('t')], fan };
}

const version2 = { ...dialect };

Object.assign(dialect, {
  protocol: 1,
  has: { ...version2.has, games: false },
  gameView(view) {
    if (view && view.deal === undefined && view.seed !== undefined) {
      const { seed, ...rest } = view;
      return { ...rest, deal: { seed } };
    }
    return view;
  },
  layout(info, pileIds) {
    return version2.layout(info, pileIds) ?? derivedLayout(info?.id, pileIds);
  },
  practice(variant, view) {
    const seed = view?.deal?.seed;
    if (seed === undefined) return version2.practice(variant, view);
    return { type: 'start_game', variant, seed, options: view.options ?? {} };
  },
  roomGame(room, playerId) {
    return room?.players?.find((p) => p.id === playerId)?.game ?? null;
  },
});
