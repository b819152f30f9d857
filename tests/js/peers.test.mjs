// The package against its peers on all twelve sets: keys and deterministic
// signatures byte-identical to @noble/post-quantum 0.7.1 (pure and
// HashSLH-DSA), signatures verified both ways with noble and with
// @oqs/liboqs-js 0.15.1. noble's keys and signatures are compared through
// the SHA-256 digests noble-fixtures.mjs recorded from noble 0.7.1 itself
// (noble takes seconds per signature on most sets); on the two 128f sets
// noble also runs live, and noble verifies our signatures on every set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as ours from 'slh-dsa-wasm';
import * as noble from '@noble/post-quantum/slh-dsa.js';
import * as oqs from '@oqs/liboqs-js/sig';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { inputs } from './inputs.mjs';

const NAMES = Object.keys(ours).filter((k) => k.startsWith('slh_dsa_'));
const fixtures = JSON.parse(readFileSync(new URL('./noble-fixtures.json', import.meta.url)));
const digest = (b) => createHash('sha256').update(b).digest('hex');
const pkgVersion = (p) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${p}/package.json`, import.meta.url))).version;

test('the peers are the versions named', () => {
  assert.equal(NAMES.length, 12);
  assert.equal(fixtures.noble, '0.7.1');
  assert.equal(pkgVersion('@noble/post-quantum'), '0.7.1');
  assert.equal(pkgVersion('@oqs/liboqs-js'), '0.15.1');
});

// Our deterministic pure signature (empty context) per set, for liboqs-js.
const pureSignatures = new Map();

for (const name of NAMES) {
  const our = ours[name];
  const theirs = noble[name];
  test(`${name}: same lengths, keys and deterministic signatures as noble`, () => {
    assert.deepEqual({ ...our.lengths }, { ...theirs.lengths });
    assert.equal(our.securityLevel, theirs.securityLevel);
    const { seed, msg, context } = inputs(name, our.lengths.seed);
    const mine = our.keygen(seed);
    const pure = our.sign(msg, mine.secretKey, { extraEntropy: false });
    const pre = our.prehash(sha512).sign(msg, mine.secretKey, { context, extraEntropy: false });
    const want = fixtures.sets[name];
    assert.ok(want, `no noble fixture for ${name}`);
    assert.equal(digest(mine.publicKey), want.publicKey);
    assert.equal(digest(mine.secretKey), want.secretKey);
    assert.equal(digest(pure), want.pure);
    assert.equal(digest(pre), want.sha512);
    // noble verifies ours (and rejects it under another context).
    assert.equal(theirs.verify(pure, msg, mine.publicKey), true);
    assert.equal(theirs.verify(pure, msg, mine.publicKey, { context }), false);
    assert.equal(theirs.prehash(sha512).verify(pre, msg, mine.publicKey, { context }), true);
    pureSignatures.set(name, { sig: pure, msg, publicKey: mine.publicKey });
  });
}

test('noble live on the 128f sets: same keys and signatures; its hedged signatures verify here', () => {
  for (const name of ['slh_dsa_sha2_128f', 'slh_dsa_shake_128f']) {
    const { seed, msg, context } = inputs(name, ours[name].lengths.seed);
    const a = ours[name].keygen(seed);
    const b = noble[name].keygen(seed);
    assert.deepEqual(a, b);
    const opts = { context, extraEntropy: false };
    assert.deepEqual(ours[name].sign(msg, a.secretKey, opts), noble[name].sign(msg, b.secretKey, opts));
    const pre = noble[name].prehash(sha256);
    assert.deepEqual(ours[name].prehash(sha256).sign(msg, a.secretKey, opts), pre.sign(msg, b.secretKey, opts));
    const hedged = noble[name].sign(msg, b.secretKey, { context });
    assert.equal(ours[name].verify(hedged, msg, b.publicKey, { context }), true);
    assert.equal(ours[name].verify(hedged, msg, b.publicKey), false);
    assert.equal(ours[name].prehash(sha256).verify(pre.sign(msg, b.secretKey), msg, b.publicKey), true);
  }
});

// liboqs-js's factory per set: createSlhDsaSha2128f, ...
const oqsCreate = (name) =>
  oqs['create' + name.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('')];

for (const name of NAMES) {
  test(`${name}: verification both ways with liboqs-js`, async () => {
    const create = oqsCreate(name);
    assert.equal(typeof create, 'function', `liboqs-js has ${name}`);
    const peer = await create();
    try {
      const msg = new TextEncoder().encode(`liboqs ${name}`);
      const theirs = peer.generateKeyPair();
      const sig = peer.sign(msg, theirs.secretKey);
      assert.equal(ours[name].verify(sig, msg, theirs.publicKey), true);
      assert.equal(ours[name].verify(sig, msg.subarray(1), theirs.publicKey), false);
      // Ours, from the noble test above (or signed here if it did not run).
      let mine = pureSignatures.get(name);
      if (!mine) {
        const k = ours[name].keygen();
        mine = { sig: ours[name].sign(msg, k.secretKey), msg, publicKey: k.publicKey };
      }
      assert.equal(peer.verify(mine.msg, mine.sig, mine.publicKey), true);
      const bad = mine.sig.slice();
      bad[bad.length - 1] ^= 1;
      assert.equal(peer.verify(mine.msg, bad, mine.publicKey), false);
    } finally {
      peer.destroy();
    }
  });
}
