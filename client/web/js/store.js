// What the browser keeps: the player's token (the account), and each variant's chosen options.
// The token is a secret: it is shown only when the player asks for it, to carry the account to
// another device.

const TOKEN = 'patience-club.token';
const NAME = 'patience-club.name';
const OPTIONS = 'patience-club.options.';

function get(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage off: the account lasts as long as the page */ }
}

export const store = {
  get token() { return get(TOKEN); },
  set token(value) { set(TOKEN, value); },
  get name() { return get(NAME); },
  set name(value) { set(NAME, value); },
  options(variant) {
    try { return JSON.parse(get(OPTIONS + variant) ?? '{}'); } catch { return {}; }
  },
  setOptions(variant, options) { set(OPTIONS + variant, JSON.stringify(options)); },
};
