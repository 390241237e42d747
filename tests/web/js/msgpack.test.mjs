// The MessagePack codec against bytes packed by Python's msgpack (what the server sends), both
// ways, and round trips of random values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, encode, MsgpackError } from '../../../client/web/js/msgpack.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const bytes = (h) => new Uint8Array(Buffer.from(h, 'hex'));

// value, the bytes Python's msgpack.packb gives for it
const VECTORS = [
  [null, 'c0'], [true, 'c3'], [false, 'c2'], [0, '00'], [127, '7f'], [128, 'cc80'], [255, 'ccff'],
  [256, 'cd0100'], [65535, 'cdffff'], [65536, 'ce00010000'], [4294967295, 'ceffffffff'],
  [4294967296, 'cf0000000100000000'], [18446744073709551615n, 'cfffffffffffffffff'],
  [-1, 'ff'], [-32, 'e0'], [-33, 'd0df'], [-128, 'd080'], [-129, 'd1ff7f'], [-32768, 'd18000'],
  [-32769, 'd2ffff7fff'], [-2147483648, 'd280000000'], [-2147483649, 'd3ffffffff7fffffff'],
  [-9223372036854775808n, 'd38000000000000000'], [1.5, 'cb3ff8000000000000'], [-0.25, 'cbbfd0000000000000'],
  ['', 'a0'], ['a'.repeat(31), 'bf' + '61'.repeat(31)], ['a'.repeat(32), 'd920' + '61'.repeat(32)],
  ['ten \u2665', 'a774656e20e299a5'], [new Uint8Array([0, 1]), 'c4020001'], [[1, [2]], '92019102'],
  [{ type: 'move', ply: 3 }, '82a474797065a46d6f7665a3706c7903'],
];

test('encodes as Python msgpack does', () => {
  for (const [value, packed] of VECTORS) assert.equal(hex(encode(value)), packed, `encode ${String(value)}`);
});

test('decodes what Python msgpack packs', () => {
  for (const [value, packed] of VECTORS) assert.deepEqual(decode(bytes(packed)), value, `decode ${packed}`);
});

test('64-bit integers within 2**53 come back as numbers, larger ones as BigInt', () => {
  assert.equal(decode(bytes('cf0000000100000000')), 4294967296);
  assert.equal(decode(bytes('cf0020000000000001')), 9007199254740993n);
  assert.equal(decode(bytes('d3ffdfffffffffffff')), -9007199254740993n);
  assert.equal(hex(encode(9007199254740993n)), 'cf0020000000000001');
  assert.equal(hex(encode(-9007199254740993n)), 'd3ffdfffffffffffff');
});

test('long strings, arrays and maps use the 16- and 32-bit lengths', () => {
  const long = 'x'.repeat(70000);
  assert.equal(hex(encode(long).subarray(0, 5)), 'db00011170');
  assert.equal(decode(encode(long)), long);
  const arr = Array.from({ length: 20 }, (_, i) => i);
  assert.equal(hex(encode(arr).subarray(0, 3)), 'dc0014');
  assert.deepEqual(decode(encode(arr)), arr);
  const map = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
  assert.equal(hex(encode(map).subarray(0, 3)), 'de0011');
  assert.deepEqual(decode(encode(map)), map);
  const bin = new Uint8Array(300).fill(7);
  assert.equal(hex(encode(bin).subarray(0, 3)), 'c5012c');
  assert.deepEqual(decode(encode(bin)), bin);
});

test('float32 is read; undefined fields are left out of maps', () => {
  assert.equal(decode(bytes('ca3fc00000')), 1.5);
  assert.deepEqual(decode(encode({ a: 1, b: undefined })), { a: 1 });
});

test('refuses truncated input, trailing bytes, extension types and non-string keys', () => {
  for (const bad of ['cd01', 'a3616263ff', 'd40100', '81c0c0', '92', 'd9']) {
    assert.throws(() => decode(bytes(bad)), MsgpackError, bad);
  }
});

test('a "__proto__" key is data, not the prototype', () => {
  const m = decode(bytes('81a95f5f70726f746f5f5f01'));
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
  assert.deepEqual(Object.keys(m), ['__proto__']);
});

test('random values survive a round trip', () => {
  let seed = 12345;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const value = (depth) => {
    const r = rand();
    if (depth > 3 || r < 0.5) {
      const kinds = [null, true, false, Math.floor(rand() * 2 ** 40) - 2 ** 39, Math.floor(rand() * 300) - 150, rand() * 1e6 + 0.5, 'card TH \u2660'.slice(0, Math.floor(rand() * 12))];
      return kinds[Math.floor(rand() * kinds.length)];
    }
    if (r < 0.75) return Array.from({ length: Math.floor(rand() * 5) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(rand() * 5) }, (_, i) => [`f${i}`, value(depth + 1)]));
  };
  for (let i = 0; i < 500; i++) {
    const v = value(0);
    assert.deepEqual(decode(encode(v)), v);
  }
});
