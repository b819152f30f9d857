// The package's own surface: both entry paths, hedged signing, bad input
// (an Error or false, never a crash), RFC 9909 key files, batches, signAsync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as slh from 'slh-dsa-wasm';
import * as sub from 'slh-dsa-wasm/slh-dsa.js';
import { sha256 } from '@noble/hashes/sha2.js';

const set = slh.slh_dsa_shake_128f;
const msg = new TextEncoder().encode('api test');
const keys = set.keygen();

test('both entry paths give the same twelve sets, ready after import', () => {
  const names = Object.keys(slh).filter((k) => k.startsWith('slh_dsa_'));
  assert.equal(names.length, 12);
  for (const n of names) {
    assert.equal(sub[n], slh[n]);
    for (const m of ['keygen', 'sign', 'verify', 'prehash', 'getPublicKey']) {
      assert.equal(typeof slh[n][m], 'function', `${n}.${m}`);
    }
    assert.equal(typeof slh[n].lengths.signature, 'number');
  }
  assert.deepEqual(set.getPublicKey(keys.secretKey), keys.publicKey);
});

test('hedged signatures differ and both verify', () => {
  const a = set.sign(msg, keys.secretKey);
  const b = set.sign(msg, keys.secretKey);
  assert.notDeepEqual(a, b);
  assert.ok(set.verify(a, msg, keys.publicKey) && set.verify(b, msg, keys.publicKey));
  const r = new Uint8Array(set.lengths.signRand).fill(9);
  assert.deepEqual(set.sign(msg, keys.secretKey, { extraEntropy: r }), set.sign(msg, keys.secretKey, { extraEntropy: r }));
  const det = set.sign(msg, keys.secretKey, { extraEntropy: false });
  assert.deepEqual(det, set.sign(msg, keys.secretKey, { extraEntropy: false }));
  assert.notDeepEqual(det, a);
});

test('wrong lengths: verify is false for a signature, an Error for keys, seeds, randomness', () => {
  const sig = set.sign(msg, keys.secretKey);
  assert.equal(set.verify(sig.subarray(1), msg, keys.publicKey), false);
  assert.equal(set.verify(new Uint8Array(0), msg, keys.publicKey), false);
  assert.equal(set.verify(new Uint8Array(sig.length + 1), msg, keys.publicKey), false);
  assert.throws(() => set.verify(sig, msg, keys.publicKey.subarray(1)), Error);
  assert.throws(() => set.sign(msg, keys.secretKey.subarray(1)), Error);
  assert.throws(() => set.sign(msg, new Uint8Array(0)), Error);
  assert.throws(() => set.keygen(new Uint8Array(set.lengths.seed - 1)), Error);
  assert.throws(() => set.sign(msg, keys.secretKey, { extraEntropy: new Uint8Array(3) }), Error);
  // A signature of another set's length is just invalid.
  const other = slh.slh_dsa_sha2_128s;
  assert.equal(other.verify(sig, msg, other.keygen().publicKey), false);
});

test('a 256-byte context is an Error; 255 bytes sign and verify', () => {
  const long = new Uint8Array(256);
  assert.throws(() => set.sign(msg, keys.secretKey, { context: long }), /context/);
  assert.throws(() => set.verify(set.sign(msg, keys.secretKey), msg, keys.publicKey, { context: long }), /context/);
  const ok = new Uint8Array(255).fill(1);
  const sig = set.sign(msg, keys.secretKey, { context: ok });
  assert.equal(set.verify(sig, msg, keys.publicKey, { context: ok }), true);
  assert.equal(set.verify(sig, msg, keys.publicKey, { context: ok.subarray(1) }), false);
});

test('non-Uint8Array arguments throw TypeError', () => {
  const sig = set.sign(msg, keys.secretKey);
  for (const bad of ['text', 42, null, {}, [1, 2, 3], new Uint16Array(8), new ArrayBuffer(8)]) {
    assert.throws(() => set.sign(bad, keys.secretKey), TypeError);
    assert.throws(() => set.sign(msg, bad), TypeError);
    assert.throws(() => set.verify(bad, msg, keys.publicKey), TypeError);
    assert.throws(() => set.verify(sig, bad, keys.publicKey), TypeError);
    assert.throws(() => set.verify(sig, msg, bad), TypeError);
    assert.throws(() => set.keygen(bad), TypeError);
    assert.throws(() => set.sign(msg, keys.secretKey, { context: bad }), TypeError);
  }
  assert.throws(() => set.sign(msg, keys.secretKey, 'opts'), TypeError);
  assert.throws(() => set.sign(msg, keys.secretKey, { contxt: msg }), Error);
  assert.throws(() => set.prehash({}), TypeError);
  assert.throws(() => set.prehash(Object.assign(() => {}, { oid: new Uint8Array([6, 1, 0]) })).sign(msg, keys.secretKey), Error);
});

test('detached buffers throw TypeError', () => {
  const detached = (u) => {
    structuredClone(u.buffer, { transfer: [u.buffer] });
    return u;
  };
  const sig = set.sign(msg, keys.secretKey);
  assert.throws(() => set.sign(detached(msg.slice()), keys.secretKey), TypeError);
  assert.throws(() => set.sign(msg, detached(keys.secretKey.slice())), TypeError);
  assert.throws(() => set.verify(detached(sig.slice()), msg, keys.publicKey), TypeError);
  assert.throws(() => set.verify(sig, msg, detached(keys.publicKey.slice())), TypeError);
  // After all that the module still works.
  assert.equal(set.verify(sig, msg, keys.publicKey), true);
});

test('many errors in a row leave the module working (no trap, no leak of state)', () => {
  for (let i = 0; i < 200; i++) assert.throws(() => set.sign(msg, new Uint8Array(i % 64)), Error);
  assert.equal(set.verify(set.sign(msg, keys.secretKey), msg, keys.publicKey), true);
});

test('RFC 9909 keys: PEM and DER out and back in', () => {
  for (const s of [set, slh.slh_dsa_sha2_192s]) {
    const k = s === set ? keys : s.keygen();
    const pem = s.secretKeyToPem(k.secretKey);
    assert.match(pem, /^-----BEGIN PRIVATE KEY-----\n/);
    const back = slh.importSecretKey(pem);
    assert.equal(back.algorithm, s);
    assert.equal(back.hashMode, false);
    assert.deepEqual(back.secretKey, k.secretKey);
    assert.deepEqual(back.publicKey, k.publicKey);
    assert.deepEqual(slh.importSecretKey(s.secretKeyToDer(k.secretKey)).secretKey, k.secretKey);
    const pub = s.publicKeyToPem(k.publicKey);
    assert.match(pub, /^-----BEGIN PUBLIC KEY-----\n/);
    assert.deepEqual(slh.importPublicKey(pub).publicKey, k.publicKey);
    assert.equal(slh.importPublicKey(s.publicKeyToDer(k.publicKey)).algorithm, s);
  }
  assert.throws(() => slh.importPublicKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'), Error);
  assert.throws(() => slh.importSecretKey(new Uint8Array([0x30, 0x03, 0x02, 0x01])), Error);
  const bad = keys.secretKey.slice();
  bad[bad.length - 1] ^= 1; // PK.root no longer matches
  assert.throws(() => set.secretKeyToPem(bad), Error);
});

test('verifyBatch: one answer per item, bad items false', () => {
  const other = slh.slh_dsa_sha2_128f;
  const k2 = other.keygen();
  const context = new Uint8Array([7]);
  const items = [
    { algorithm: set, signature: set.sign(msg, keys.secretKey), message: msg, publicKey: keys.publicKey },
    { algorithm: other, signature: other.sign(msg, k2.secretKey, { context }), message: msg, publicKey: k2.publicKey, context },
    { algorithm: other.prehash(sha256), signature: other.prehash(sha256).sign(msg, k2.secretKey), message: msg, publicKey: k2.publicKey },
  ];
  const wrong = [
    { ...items[0], message: msg.subarray(1) },
    { ...items[1], context: undefined },
    { ...items[0], publicKey: keys.publicKey.subarray(1) },
    { ...items[0], signature: new Uint8Array(5) },
    { ...items[1], context: new Uint8Array(256) },
  ];
  assert.deepEqual(slh.verifyBatch([...items, ...wrong]), [true, true, true, false, false, false, false, false]);
  assert.deepEqual(slh.verifyBatch([]), []);
  assert.throws(() => slh.verifyBatch([{ ...items[0], algorithm: {} }]), TypeError);
  assert.throws(() => slh.verifyBatch('x'), TypeError);
});

test('signAsync signs in a worker: same bytes as sign, errors reject', async () => {
  const opts = { extraEntropy: false, context: new Uint8Array([3]) };
  const [a, b] = await Promise.all([
    set.signAsync(msg, keys.secretKey, opts),
    set.prehash(sha256).signAsync(msg, keys.secretKey, opts),
  ]);
  assert.deepEqual(a, set.sign(msg, keys.secretKey, opts));
  assert.deepEqual(b, set.prehash(sha256).sign(msg, keys.secretKey, opts));
  assert.equal(set.verify(await set.signAsync(msg, keys.secretKey), msg, keys.publicKey), true);
  await assert.rejects(set.signAsync(msg, keys.secretKey.subarray(2)), Error);
  await assert.rejects(set.signAsync('text', keys.secretKey), TypeError);
  slh.terminateWorker();
});
