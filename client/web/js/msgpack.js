// MessagePack, the subset the protocol uses: nil, booleans, integers up to 64 bits, float64
// (float32 read too), str, bin, arrays and maps with string keys. No extension types: a frame
// holding one is refused, as the server would refuse it.
//
// Integers that fit a JavaScript number exactly come back as numbers; larger ones as BigInt,
// so that a 64-bit id survives a round trip. Maps come back as plain objects.

const utf8In = new TextEncoder();
const utf8Out = new TextDecoder('utf-8', { fatal: true });
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

export class MsgpackError extends Error {}

class Writer {
  constructor() {
    this.bytes = new Uint8Array(256);
    this.view = new DataView(this.bytes.buffer);
    this.length = 0;
  }

  room(n) {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }

  byte(b) { this.room(1); this.bytes[this.length++] = b; }
  u16(v) { this.room(2); this.view.setUint16(this.length, v); this.length += 2; }
  u32(v) { this.room(4); this.view.setUint32(this.length, v); this.length += 4; }
  raw(data) { this.room(data.length); this.bytes.set(data, this.length); this.length += data.length; }

  head(tag, v) { this.byte(tag); this.u32(v); }
  u64(tag, big) { this.byte(tag); this.room(8); this.view.setBigUint64(this.length, BigInt.asUintN(64, big)); this.length += 8; }

  integer(n) {
    if (n >= 0) {
      if (n < 0x80) this.byte(n);
      else if (n < 0x100) { this.byte(0xcc); this.byte(n); }
      else if (n < 0x10000) { this.byte(0xcd); this.u16(n); }
      else if (n < 0x100000000) this.head(0xce, n);
      else this.u64(0xcf, BigInt(n));
    } else if (n >= -32) this.byte(n & 0xff);
    else if (n >= -0x80) { this.byte(0xd0); this.byte(n & 0xff); }
    else if (n >= -0x8000) { this.byte(0xd1); this.u16(n & 0xffff); }
    else if (n >= -0x80000000) this.head(0xd2, n >>> 0);
    else this.u64(0xd3, BigInt(n));
  }

  bigint(b) {
    if (b >= MIN_SAFE && b <= MAX_SAFE) return this.integer(Number(b));
    if (b > 0n) {
      if (b >= 1n << 64n) throw new MsgpackError('integer above 2**64 - 1');
      return this.u64(0xcf, b);
    }
    if (b < -(1n << 63n)) throw new MsgpackError('integer below -2**63');
    return this.u64(0xd3, b);
  }

  sized(n, fix, fixMax, t8, t16, t32) {
    if (fix !== null && n <= fixMax) this.byte(fix | n);
    else if (t8 !== null && n < 0x100) { this.byte(t8); this.byte(n); }
    else if (n < 0x10000) { this.byte(t16); this.u16(n); }
    else this.head(t32, n);
  }

  value(v) {
    if (v === null || v === undefined) return this.byte(0xc0);
    switch (typeof v) {
      case 'boolean': return this.byte(v ? 0xc3 : 0xc2);
      case 'number':
        if (Number.isSafeInteger(v)) return this.integer(v);
        this.byte(0xcb); this.room(8); this.view.setFloat64(this.length, v); this.length += 8;
        return undefined;
      case 'bigint': return this.bigint(v);
      case 'string': {
        const data = utf8In.encode(v);
        this.sized(data.length, 0xa0, 31, 0xd9, 0xda, 0xdb);
        return this.raw(data);
      }
      default: break;
    }
    if (v instanceof Uint8Array) {
      this.sized(v.length, null, 0, 0xc4, 0xc5, 0xc6);
      return this.raw(v);
    }
    if (Array.isArray(v)) {
      this.sized(v.length, 0x90, 15, null, 0xdc, 0xdd);
      for (const item of v) this.value(item);
      return undefined;
    }
    if (v instanceof Map) {
      this.sized(v.size, 0x80, 15, null, 0xde, 0xdf);
      for (const [key, item] of v) { this.value(key); this.value(item); }
      return undefined;
    }
    if (typeof v === 'object') {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined);
      this.sized(keys.length, 0x80, 15, null, 0xde, 0xdf);
      for (const key of keys) { this.value(key); this.value(v[key]); }
      return undefined;
    }
    throw new MsgpackError(`cannot encode a ${typeof v}`);
  }
}

/** One value as MessagePack bytes. Fields whose value is undefined are left out of maps. */
export function encode(value) {
  const w = new Writer();
  w.value(value);
  return w.bytes.slice(0, w.length);
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = 0;
  }

  need(n) {
    if (this.at + n > this.bytes.length) throw new MsgpackError('truncated MessagePack');
    const at = this.at;
    this.at += n;
    return at;
  }

  u8() { return this.bytes[this.need(1)]; }
  u16() { return this.view.getUint16(this.need(2)); }
  u32() { return this.view.getUint32(this.need(4)); }

  big(signed) {
    const at = this.need(8);
    const b = signed ? this.view.getBigInt64(at) : this.view.getBigUint64(at);
    return b >= MIN_SAFE && b <= MAX_SAFE ? Number(b) : b;
  }

  str(n) { const at = this.need(n); return utf8Out.decode(this.bytes.subarray(at, at + n)); }
  bin(n) { const at = this.need(n); return this.bytes.slice(at, at + n); }

  array(n) {
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.value();
    return out;
  }

  map(n) {
    const out = {};
    for (let i = 0; i < n; i++) {
      const key = this.value();
      if (typeof key !== 'string') throw new MsgpackError('a map key that is not a string');
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  value() {
    const t = this.u8();
    if (t < 0x80) return t;
    if (t < 0x90) return this.map(t & 0x0f);
    if (t < 0xa0) return this.array(t & 0x0f);
    if (t < 0xc0) return this.str(t & 0x1f);
    if (t >= 0xe0) return t - 0x100;
    switch (t) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return this.bin(this.u8());
      case 0xc5: return this.bin(this.u16());
      case 0xc6: return this.bin(this.u32());
      case 0xca: return this.view.getFloat32(this.need(4));
      case 0xcb: return this.view.getFloat64(this.need(8));
      case 0xcc: return this.u8();
      case 0xcd: return this.u16();
      case 0xce: return this.u32();
      case 0xcf: return this.big(false);
      case 0xd0: return this.view.getInt8(this.need(1));
      case 0xd1: return this.view.getInt16(this.need(2));
      case 0xd2: return this.view.getInt32(this.need(4));
      case 0xd3: return this.big(true);
      case 0xd9: return this.str(this.u8());
      case 0xda: return this.str(this.u16());
      case 0xdb: return this.str(this.u32());
      case 0xdc: return this.array(this.u16());
      case 0xdd: return this.array(this.u32());
      case 0xde: return this.map(this.u16());
      case 0xdf: return this.map(this.u32());
      default: throw new MsgpackError(`MessagePack type 0x${t.toString(16)} is not used by the protocol`);
    }
  }
}

/** The one value that ``bytes`` (a Uint8Array or ArrayBuffer) holds; trailing bytes are an error. */
export function decode(bytes) {
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const r = new Reader(data);
  const value = r.value();
  if (r.at !== data.length) throw new MsgpackError(`${data.length - r.at} bytes after the value`);
  return value;
}
