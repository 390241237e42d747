// What the browser keeps: the player's token (the account), each variant's chosen options, the
// race room the player is in, and the player's settings.
// The token is a secret: it is shown only when the player asks for it, to carry the account to
// another device.

const TOKEN = 'patience-club.token';
const NAME = 'patience-club.name';
const OPTIONS = 'patience-club.options.';
const ROOM = 'patience-club.room';
const DEAL = 'patience-club.deal';
const SETTINGS = 'patience-club.settings';
/** The kinds of deal New game asks for: any secret deal, or a winnable one of a difficulty. */
export const DEAL_KINDS = ['any', 'easy', 'medium', 'hard'];
/** How long home offers the way back to a race room the player was in. */
const ROOM_KEPT_MS = 3 * 3600 * 1000;

function get(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage off: the account lasts as long as the page */ }
}

/** Tells 'room' when the race room the player is in changes: a room joined after the player
 * has gone home (the join's reply arriving after the click) still shows its way back there. */
export const storeEvents = new EventTarget();

export const store = {
  get token() { return get(TOKEN); },
  set token(value) { set(TOKEN, value); },
  get name() { return get(NAME); },
  set name(value) { set(NAME, value); },
  options(variant) {
    try { return JSON.parse(get(OPTIONS + variant) ?? '{}'); } catch { return {}; }
  },
  setOptions(variant, options) { set(OPTIONS + variant, JSON.stringify(options)); },
  /** What New game deals: a winnable medium deal until the player chooses otherwise. */
  get deal() { const kind = get(DEAL); return DEAL_KINDS.includes(kind) ? kind : 'medium'; },
  set deal(kind) { set(DEAL, kind); },
  /** The race room the player is in (joined and not left, in the last hours), or null. */
  get room() {
    try {
      const kept = JSON.parse(get(ROOM) ?? 'null');
      return kept && Date.now() - kept.at < ROOM_KEPT_MS ? kept.code : null;
    } catch { return null; }
  },
  set room(code) {
    set(ROOM, code ? JSON.stringify({ code, at: Date.now() }) : null);
    storeEvents.dispatchEvent(new Event('room'));
  },
};

/** The name of the game option a server's variants give autoplay (VariantInfo ``options``). */
export const AUTOPLAY = 'autoplay';
/** The player's settings until changed (settings.js: their panel, and the page following them). */
export const DEFAULTS = {
  cardSize: 'medium', fourColour: false, cardBack: 'blue', speed: 'normal', sounds: false, autoplay: true, leftHanded: false,
};

/** The player's settings, as kept in the browser over the defaults. */
export function settings() {
  try {
    const saved = JSON.parse(get(SETTINGS) ?? '{}');
    const kept = saved && typeof saved === 'object' ? saved : {};
    // (an earlier page kept a yes/no for animations)
    if (kept.speed === undefined && kept.animations === false) kept.speed = 'off';
    return { ...DEFAULTS, ...kept };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(values) {
  set(SETTINGS, JSON.stringify(values));
}
