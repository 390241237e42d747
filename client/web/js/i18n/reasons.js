// The reasons the engine gives for a refusal (shared/variants, shared/refusals.py), as patterns:
// each is said again from the language table's key (the captured parts, notation, are named as
// the screen names them first), English as French: the English table says what the engine says.

const P = "([tfr]\\d|[ws])";
const C = '([A2-9TJQK][CDHS])';
const re = (source) => new RegExp(`^${source}$`);

export const REASONS = [
  [re(`${P} cannot move onto itself`), 'reason.self'],
  [re(`${P} is empty`), 'reason.empty'],
  [re(`${P} has only (\\d+) cards`), 'reason.only'],
  [re(`${P} has only (\\d+) face-up cards`), 'reason.onlyUp'],
  [re(`the top card of ${P} is face down`), 'reason.topDown'],
  [re(`${C} on ${C} is not a build: colours must alternate and ranks go down by one`), 'reason.notBuild'],
  [re('(?:only )?one card at a time goes to a foundation'), 'reason.oneAtATime'],
  [re(`no foundation takes ${C}`), 'reason.noFoundation'],
  [re(`${C} cannot start ${P}: an empty foundation takes only an ace`), 'reason.aceFirst'],
  [re(`${C} cannot go on ${C} in ${P}: needs the same suit, one rank higher`), 'reason.sameSuitUp'],
  [re(`${C} cannot go on ${C}: needs the other colour, one rank lower`), 'reason.otherColourDown'],
  [re(`${C} cannot go on ${C}: needs the other colour`), 'reason.otherColour'],
  [re(`${C} cannot go on ${C}: needs one rank lower`), 'reason.rankLower'],
  [re(`${C} cannot go on ${C}: needs a different suit`), 'reason.differentSuit'],
  [re(`${C} cannot go on ${P}: ${P} holds no base card`), 'reason.noBase'],
  [re(`${C} cannot go on ${P}: ${P} takes only (\\w+), the base suit`), 'reason.baseSuit'],
  [re(`${C} cannot start ${P}: ${P} is not started yet`), 'reason.notStarted'],
  [re(`${C} cannot go on ${P}: ${P} takes only (\\w+)`), 'reason.onlySuit'],
  [re(`${C} cannot go on ${P}: no (\\w+) on ${P} yet`), 'reason.notYet'],
  [re('(.+) has no stock'), 'reason.noStock'],
  [re('the stock is empty and no redeal is left'), 'reason.stockDone'],
  [re('the stock is empty and (?:gypsy has no redeal|westhaven deals it only once)'), 'reason.stockDone'],
  [re('the stock and the waste are empty'), 'reason.stockWasteEmpty'],
  [re("cards leave the stock only by '?deal'?"), 'reason.stockByDeal'],
  [re("the stock's cards are turned with deal, not moved"), 'reason.stockByDeal'],
  [re('nothing (?:is ever placed|can be put) on (?:the stock|s)'), 'reason.nothingOnStock'],
  [re('nothing is ever placed on (?:the waste|w)'), 'reason.nothingOnWaste'],
  [re('only deal puts cards on the waste'), 'reason.nothingOnWaste'],
  [re(`nothing is ever placed on a reserve such as ${P}`), 'reason.nothingOnReserve'],
  [re(`nothing can be put on ${P}`), 'reason.nothingOn'],
  [re(`only the top card of ${P} can move`), 'reason.onlyTop'],
  [re('only the top card of the waste can move'), 'reason.onlyTopWaste'],
  [re('only the top card of a foundation can move'), 'reason.onlyTopFoundation'],
  [re('cards on the foundations (?:are out of play|never move) in \\w+'), 'reason.foundationsFixed'],
  [re('a free cell holds one card'), 'reason.cellOne'],
  [re(`free cell ${P} is not empty`), 'reason.cellFull'],
  [re('(\\d+) cards cannot move at once: with (\\d+) empty free cells and (\\d+) other empty columns the limit is (\\d+)'), 'reason.tooMany'],
  [re('the game is stuck: .*'), 'reason.stuck'],
  [re('the game is over \\((\\w+)\\)'), 'reason.over'],
  [re('auto would move nothing: .*'), 'reason.autoNothing'],
  [re('nothing to undo: .*'), 'reason.nothingToUndo'],
];
