// The names both clients show for cards, piles and the notation they translate: one table. The
// browser imports it; the terminal client (client/names_table.py) reads the object below as JSON,
// from the line that exports it to the file's last closing brace, so it is written as JSON (double
// quotes, no comment inside, no trailing comma). tests/names_golden.json holds both clients to the same
// examples (tests/client/test_names_golden.py, tests/web/js/names.test.mjs).
//
//   suits     a card's suit as its face shows it
//   ranks     a card's rank as its corner shows it (a language may name J Q K its own way)
//   keys      the label written above each pile, by kind and number: the key that picks it
//   notation  a pile id and a card in the engine's notation, as patterns (both clients find
//             them inside the server's sentences and name them as the screen does)

export const NAMES = {
  "suits": {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"},
  "ranks": {"A": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8",
            "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K"},
  "keys": {
    "t": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"],
    "r": ["q", "w", "e", "r"],
    "f": ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"],
    "w": ["x"],
    "s": ["spc"]
  },
  "notation": {"pile": "(?:[tfr]\\d|[ws])", "card": "[A2-9TJQK][CDHS]"}
};
