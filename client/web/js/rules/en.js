// The rules of the five games in English, in the project's own words (docs/rules.md is the
// reference). Each game: layout, goal, moves, stock and redeals, scoring, options, a tip.

export const rulesEn = {
  osmosis: {
    layout: 'Four reserves on the left, each with a foundation beside it; the stock and the waste on the top row. Each reserve starts with three cards face down under one face up; one card starts the first foundation.',
    goal: 'Put all 52 cards on the foundations.',
    moves: [
      'Only the top card of a reserve or of the waste moves, and only onto a foundation. Nothing is ever put on a reserve, and foundation cards never move again.',
      'The first foundation takes every card of the base suit (the suit of the card dealt onto it), in any order.',
      'Each other foundation is started with a card of the base rank, once the one above it is started; then it takes cards of its own suit, but only in ranks the foundation above it already holds.',
    ],
    stock: 'Deal turns one card onto the waste. When the stock is empty, deal turns the waste back over: two redeals, three passes in all.',
    scoring: 'One point per card on the foundations: 1 as dealt, 52 when won.',
    options: 'Deal three: three cards per deal and unlimited redeals.',
    tip: 'Start the next foundation as soon as you can: a rank on the first foundation opens that rank for the others. Keep an eye on which reserve hides the cards you need.',
  },
  thumb_and_pouch: {
    layout: 'Seven columns; the first has one card, each next one more, the top card face up. Stock, waste and four foundations on the top row.',
    goal: 'Put all 52 cards on the foundations, each suit from ace to king.',
    moves: [
      'A card goes on a column\u2019s top card one rank higher of a different suit (any colour: 7\u2666 may go on 8\u2665).',
      'Any face-up card moves with every card above it, in sequence or not. Any card or group may go into an empty column.',
      'The top card of the waste or of a foundation may move too: foundation cards stay in play.',
    ],
    stock: 'Deal turns one card onto the waste; two redeals.',
    scoring: 'One point per card on the foundations; 52 when won.',
    options: 'None.',
    tip: 'Turn up the face-down cards first: the long columns on the right hide most of them.',
  },
  gypsy: {
    layout: 'Two decks. Eight columns of three cards (two face down, one up); the stock and eight foundations on the top row; no waste.',
    goal: 'Put all 104 cards on the eight foundations, two of each suit, ace to king.',
    moves: [
      'A card goes on a column\u2019s top card of the other colour and one rank higher.',
      'A build (alternate colours, ranks going down by one) moves as a whole, of any length. Any card or build may go into an empty column.',
      'The top card of a foundation may come back to a column.',
    ],
    stock: 'Deal puts one card face up on every column. No redeal: ten deals empty the stock.',
    scoring: '5 points per card on the foundations, 60 more for each complete suit, and 2 for each pair of neighbouring face-up cards in a column that make a build. 1000 for a win (104 \u00d7 5 + 8 \u00d7 60).',
    options: 'None.',
    tip: 'Empty a column before you deal: every deal covers each column with one more card.',
  },
  freecell: {
    layout: 'Every card face up in eight columns; four free cells and four foundations on the top row; no stock.',
    goal: 'Put all 52 cards on the foundations, each suit from ace to king.',
    moves: [
      'A card goes on a column\u2019s top card of the other colour and one rank higher, or into an empty free cell (one card each), or onto a foundation.',
      'A build moves as a whole when there is room to move it card by card: (empty free cells + 1) \u00d7 2 to the power of the empty columns.',
      'Any card or build may go into an empty column. Cards on the foundations stay there.',
    ],
    stock: 'There is no stock: every card is dealt face up from the start.',
    scoring: 'One point per card on the foundations; 52 when won.',
    options: 'Autoplay (on by default): after each move, cards no other card still needs go home by themselves.',
    tip: 'Keep free cells empty as long as you can, and free the aces and twos early. Nearly every deal can be won.',
  },
  westhaven: {
    layout: 'Ten columns of three cards (two face down, one up); stock, waste and four foundations on the top row.',
    goal: 'Put all 52 cards on the foundations, each suit from ace to king.',
    moves: [
      'A card goes on a column\u2019s top card of the other colour and one rank higher.',
      'From a column, move either its top card alone or its whole face-up part; never a part of a run in between.',
      'Any card, or a column\u2019s whole face-up part, may go into an empty column. Cards on the foundations stay there.',
    ],
    stock: 'Deal turns one card onto the waste. No redeal: the stock goes through once.',
    scoring: 'One point per card on the foundations; 52 when won.',
    options: 'None.',
    tip: 'Since only whole face-up parts move, build long runs only where you will not need to split them.',
  },
};
