// One WebSocket to the server: hello first, requests matched to replies by id, pushes handed on,
// and a link that comes back by itself.
//
// When the link drops (network, a sleeping phone, a server restart) it reconnects with backoff
// (0.25 s doubling to 8 s, +-20% jitter; at once when the browser says it is online again or the
// page becomes visible), says hello with the token and sends again every request still
// unanswered, in order. Game actions carry the ply the player last saw, so an action whose reply
// was lost is not played twice (docs/protocol.md, the ply rule). The link's opening and each welcome
// leave performance marks ("pc-open", "pc-welcome") that bench/browser.py reads.

import { encode, decode } from './msgpack.js';
import { dialect } from './dialect.js';

const CLIENT = 'patience-club-web/1';
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8000;
/** hello refusals no retry can fix: reconnection stops and the app is told */
const FINAL = new Set(['bad_token', 'banned', 'name_taken', 'name_looks_taken', 'invalid_name', 'protocol_mismatch', 'too_many_accounts']);

export class ServerError extends Error {
  constructor(reply) {
    super(reply.message || reply.code);
    this.code = reply.code;
    this.reply = reply;
  }
}

export class Connection extends EventTarget {
  /**
   * ``credentials()`` gives the hello fields ({token} or {name}); ``url`` the WebSocket address.
   * Events: "welcome" (detail: {welcome, again}), "push" (detail: message), "status"
   * (detail: {online, retryInMs}), "refused" (detail: the hello error).
   */
  constructor(url, credentials) {
    super();
    this.url = url;
    this.credentials = credentials;
    this.ws = null;
    this.welcomed = false;
    this.welcome = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {message, resolve, reject, resend, sent}
    this.delay = FIRST_DELAY_MS;
    this.timer = null;
    this.stopped = true;
    this.everWelcomed = false;
    this.onWake = () => { if (!this.ws && !this.stopped) this.connectNow(); };
    this.onVisible = () => { if (document.visibilityState === 'visible') this.onWake(); };
  }

  start() {
    this.stopped = false;
    window.addEventListener('online', this.onWake);
    document.addEventListener('visibilitychange', this.onVisible);
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onWake);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) this.ws.close(1000);
  }

  get online() {
    return this.welcomed;
  }

  connectNow() {
    clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  open() {
    if (this.ws || this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.lost(String(err));
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => { performance.mark?.('pc-open'); this.hello(); };
    ws.onmessage = (event) => this.received(event.data);
    ws.onclose = () => {
      if (this.ws === ws) this.lost('closed');
    };
  }

  lost() {
    this.ws = null;
    this.welcomed = false;
    for (const entry of this.pending.values()) {
      entry.sent = false;
      if (!entry.resend) {
        this.pending.delete(entry.message.id);
        entry.reject(new ServerError({ code: 'disconnected', message: 'the connection was lost before the server answered; try again' }));
      }
    }
    if (this.stopped) return;
    const jitter = 1 + (Math.random() * 0.4 - 0.2);
    const wait = Math.round(this.delay * jitter);
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    this.dispatchEvent(new CustomEvent('status', { detail: { online: false, retryInMs: wait } }));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this.open(); }, wait);
  }

  hello() {
    const message = { type: 'hello', id: this.nextId++, protocol: dialect.protocol, client: CLIENT, ...this.credentials() };
    this.helloId = message.id;
    this.ws.send(encode(message));
    // requests that may go beside hello: the server answers hello before it reads them
    // (docs/protocol.md, "Session"), and refuses them with hello_first if hello fails
    for (const entry of [...this.pending.values()]) if (entry.early) this.transmit(entry, true);
  }

  received(data) {
    let message;
    try {
      message = decode(new Uint8Array(data));
    } catch {
      return; // not ours to answer: the server sends only maps
    }
    if (message === null || typeof message !== 'object') return;
    if (message.re !== undefined && message.re === this.helloId) {
      this.helloAnswered(message);
      return;
    }
    const entry = message.re !== undefined ? this.pending.get(message.re) : undefined;
    if (entry) {
      this.pending.delete(message.re);
      if (message.type === 'error') entry.reject(new ServerError(message));
      else entry.resolve(message);
      return;
    }
    if (message.re === undefined) this.dispatchEvent(new CustomEvent('push', { detail: message }));
  }

  helloAnswered(message) {
    this.helloId = null;
    if (message.type !== 'welcome') {
      if (FINAL.has(message.code)) {
        this.stopped = true;
        this.ws.close(1000);
      }
      this.dispatchEvent(new CustomEvent('refused', { detail: message }));
      return;
    }
    const again = this.everWelcomed;
    this.everWelcomed = true;
    this.welcomed = true;
    this.welcome = message;
    performance.mark?.('pc-welcome');
    this.delay = FIRST_DELAY_MS;
    this.dispatchEvent(new CustomEvent('status', { detail: { online: true } }));
    this.dispatchEvent(new CustomEvent('welcome', { detail: { welcome: message, again } }));
    for (const entry of [...this.pending.values()]) this.transmit(entry);
  }

  transmit(entry, beside = false) {
    if (!(this.welcomed || beside) || entry.sent) return;
    entry.sent = true;
    this.ws.send(encode(entry.message));
  }

  /**
   * Send ``fields`` as a request and resolve with its reply (reject with ServerError on
   * ``error``). Sent now when connected, else as soon as the server has welcomed us again.
   * ``resend: false`` for a request that must not be sent twice (creating a room): it fails
   * with code "disconnected" when the link drops before its answer. ``early: true`` for one
   * made before the first welcome that goes right after hello without waiting for it (a new
   * game's start_game, boot.js).
   */
  request(fields, { resend = true, early = false } = {}) {
    const message = { ...fields, id: this.nextId++ };
    return new Promise((resolve, reject) => {
      const entry = { message, resolve, reject, resend, early, sent: false };
      this.pending.set(message.id, entry);
      this.transmit(entry);
    });
  }
}
