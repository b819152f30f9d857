// The package's own surface: both entry paths, hedged signing, bad input
// (an Error or false, never a crash), RFC 9909 key files, batches, signAsync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
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

// --- issue 51: robust glue, several workers, every entry ------------------

// Whether `needle` occurs in the module's memory (tests only: what a failed
// or finished call left behind).
function inMemory(module, needle) {
  const mem = new Uint8Array(module._moduleMemory());
  outer: for (let i = mem.indexOf(needle[0]); i !== -1; i = mem.indexOf(needle[0], i + 1)) {
    for (let j = 1; j < needle.length; j++) if (mem[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

test('a view whose own length lies is copied by its real length', () => {
  const lying = (bytes, length) => Object.defineProperty(bytes.slice(), 'length', { value: length });
  const want = set.sign(msg, keys.secretKey, { extraEntropy: false });
  for (const length of [0, 1, 1 << 30, -1]) {
    assert.deepEqual(set.sign(lying(msg, length), keys.secretKey, { extraEntropy: false }), want);
    assert.deepEqual(set.sign(msg, lying(keys.secretKey, length), { extraEntropy: false }), want);
    assert.equal(set.verify(lying(want, length), msg, keys.publicKey), true);
  }
  // Uint8Array in name only: refused.
  const fake = Object.setPrototypeOf({ length: 16, 0: 1 }, Uint8Array.prototype);
  assert.throws(() => set.sign(fake, keys.secretKey), TypeError);
});

test('no copy of a secret key stays in the module, after success or failure', () => {
  const k = set.keygen();
  assert.equal(inMemory(slh, k.secretKey.subarray(0, 32)), false);
  set.sign(msg, k.secretKey);
  assert.throws(() => set.sign(msg, k.secretKey, { context: new Uint8Array(256) }), /context/);
  assert.throws(() => set.sign(msg, k.secretKey, { extraEntropy: new Uint8Array(1) }), Error);
  set.secretKeyToPem(k.secretKey);
  slh.importSecretKey(set.secretKeyToDer(k.secretKey));
  // SK.seed ‖ SK.prf: the secret half of the key.
  assert.equal(inMemory(slh, k.secretKey.subarray(0, 32)), false);
});

test('signAsync refuses an option a worker cannot receive, and Node still exits', () => {
  const script = `
    import { slh_dsa_sha2_128f as s } from 'slh-dsa-wasm';
    const k = s.keygen();
    const msg = new Uint8Array(3);
    for (const opts of [{ extraEntropy: () => 1 }, { context: Symbol('x') }, { workers: 0 }, { workers: 1.5 }]) {
      try { await s.signAsync(msg, k.secretKey, opts); console.log('resolved'); }
      catch (e) { console.log(e.name); }
    }
    await s.signAsync(msg, k.secretKey);
    console.log('signed');`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.error, undefined, 'node did not exit: a worker kept it alive');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.stdout.trim().split('\n'), ['TypeError', 'TypeError', 'RangeError', 'RangeError', 'signed']);
});

test('signAsync over several workers: the bytes of one worker', async () => {
  for (const s of [slh.slh_dsa_sha2_128s, slh.slh_dsa_shake_192f]) {
    const k = s.keygen();
    const rnd = new Uint8Array(s.lengths.signRand).fill(7);
    for (const opts of [{ extraEntropy: false }, { extraEntropy: rnd, context: new Uint8Array([1, 2]) }]) {
      const one = s.sign(msg, k.secretKey, opts);
      for (const workers of [2, 3]) assert.deepEqual(await s.signAsync(msg, k.secretKey, { ...opts, workers }), one);
      assert.deepEqual(await s.prehash(sha256).signAsync(msg, k.secretKey, { ...opts, workers: 2 }), s.prehash(sha256).sign(msg, k.secretKey, opts));
    }
    assert.equal(s.verify(await s.signAsync(msg, k.secretKey, { workers: 2 }), msg, k.publicKey), true);
  }
  await assert.rejects(set.signAsync(msg, keys.secretKey.subarray(1), { workers: 2 }), Error);
  slh.terminateWorker();
});

test('require() gives the same package, ready at once', () => {
  const required = createRequire(import.meta.url)('slh-dsa-wasm');
  const k = required.slh_dsa_shake_128f.keygen(new Uint8Array(48).fill(5));
  assert.deepEqual(k, set.keygen(new Uint8Array(48).fill(5)));
  const sig = required.slh_dsa_shake_128f.sign(msg, k.secretKey, { extraEntropy: false });
  assert.deepEqual(sig, set.sign(msg, k.secretKey, { extraEntropy: false }));
});

test('the per-set and verify-only entries: the same keys and signatures, nothing more', async () => {
  const seed = new Uint8Array(96).fill(3);
  for (const name of ['sha2-128f', 'sha2-256s', 'shake-128f', 'shake-256f']) {
    const js = 'slh_dsa_' + name.replace('-', '_');
    const one = await import(`slh-dsa-wasm/${name}`);
    assert.deepEqual(Object.keys(one).filter((k) => k.startsWith('slh_dsa_')), [js]);
    const [full, alone] = [slh[js], one[js]];
    const k = alone.keygen(seed.subarray(0, alone.lengths.seed));
    assert.deepEqual(k, full.keygen(seed.subarray(0, full.lengths.seed)));
    const sig = alone.sign(msg, k.secretKey, { extraEntropy: false });
    assert.deepEqual(sig, full.sign(msg, k.secretKey, { extraEntropy: false }));
    assert.equal(full.verify(sig, msg, k.publicKey), true);
    // A key of another set is refused by name.
    const other = slh.slh_dsa_shake_128s.keygen();
    if (js !== 'slh_dsa_shake_128s') assert.throws(() => one.importPublicKey(slh.slh_dsa_shake_128s.publicKeyToPem(other.publicKey)), /leave the set out/);
  }
  const verify = await import('slh-dsa-wasm/verify');
  const sig = set.sign(msg, keys.secretKey);
  assert.equal(verify.slh_dsa_shake_128f.verify(sig, msg, keys.publicKey), true);
  assert.equal(verify.slh_dsa_shake_128f.verify(sig, msg.subarray(1), keys.publicKey), false);
  assert.equal(verify.slh_dsa_shake_128f.sign, undefined);
  assert.equal(verify.slh_dsa_shake_128f.keygen, undefined);
  assert.equal(verify.importSecretKey, undefined);
  const pre = set.prehash(sha256);
  assert.equal(verify.slh_dsa_shake_128f.prehash(sha256).verify(pre.sign(msg, keys.secretKey), msg, keys.publicKey), true);
  assert.deepEqual(verify.verifyBatch([{ algorithm: verify.slh_dsa_shake_128f, signature: sig, message: msg, publicKey: keys.publicKey }]), [true]);
});
