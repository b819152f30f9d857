// The package against its peers on all twelve sets: keys and deterministic
// signatures byte-identical to @noble/post-quantum 0.7.1 (pure and
// HashSLH-DSA), signatures verified both ways with noble and with
// @oqs/liboqs-js 0.15.1. noble signs the "f" sets live; its "s"-set
// signatures (seconds each in noble) are checked against the digests in
// noble-fixtures.json, which noble-fixtures.mjs recorded from noble itself.
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
const pkgVersion = (p) => JSON.parse(readFileSync(new URL(import.meta.resolve(p + '/package.json')))).version;

test('the peers are the versions named', () => {
  assert.equal(NAMES.length, 12);
  assert.equal(fixtures.noble, '0.7.1');
  assert.equal(pkgVersion('@noble/post-quantum'), '0.7.1');
  assert.equal(pkgVersion('@oqs/liboqs-js'), '0.15.1');
});

for (const name of NAMES) {
  const our = ours[name];
  const theirs = noble[name];
  test(`${name}: same lengths, keys and deterministic signatures as noble`, () => {
    assert.deepEqual({ ...our.lengths }, { ...theirs.lengths });
    assert.equal(our.securityLevel, theirs.securityLevel);
    const { seed, msg, context } = inputs(name, our.lengths.seed);
    const mine = our.keygen(seed);
    const opts = { context, extraEntropy: false };
    const pure = our.sign(msg, mine.secretKey, opts);
    const pre = our.prehash(sha512).sign(msg, mine.secretKey, opts);
    if (name.endsWith('f')) {
      const keys = theirs.keygen(seed);
      assert.deepEqual(mine.publicKey, keys.publicKey);
      assert.deepEqual(mine.secretKey, keys.secretKey);
      assert.deepEqual(pure, theirs.sign(msg, keys.secretKey, opts));
      assert.deepEqual(pre, theirs.prehash(sha512).sign(msg, keys.secretKey, opts));
    } else {
      const want = fixtures.sets[name];
      assert.ok(want, `no noble fixture for ${name}`);
      assert.equal(digest(mine.publicKey), want.publicKey);
      assert.equal(digest(mine.secretKey), want.secretKey);
      assert.equal(digest(pure), want.pure);
      assert.equal(digest(pre), want.sha512);
    }
    // noble verifies ours (and rejects it under another context).
    assert.equal(theirs.verify(pure, msg, mine.publicKey, { context }), true);
    assert.equal(theirs.verify(pure, msg, mine.publicKey), false);
    assert.equal(theirs.prehash(sha512).verify(pre, msg, mine.publicKey, { context }), true);
  });
}

test('noble signatures verify here (hedged, pure and HashSLH-DSA)', () => {
  // Hedged noble signatures on the fast sets; "s" sets are covered by the
  // deterministic digests above.
  for (const name of NAMES.filter((n) => n.endsWith('128f'))) {
    const { secretKey, publicKey } = noble[name].keygen();
    const msg = new TextEncoder().encode(`noble ${name}`);
    const context = new Uint8Array([1, 2, 3]);
    const sig = noble[name].sign(msg, secretKey, { context });
    assert.equal(ours[name].verify(sig, msg, publicKey, { context }), true, name);
    const pre = noble[name].prehash(sha256).sign(msg, secretKey);
    assert.equal(ours[name].prehash(sha256).verify(pre, msg, publicKey), true, name);
    assert.equal(ours[name].verify(pre, msg, publicKey), false, name);
  }
});

// liboqs-js class per set: createSlhDsaSha2128f, ...
const oqsCreate = (name) =>
  oqs[
    'create' +
      name
        .replace('slh_dsa_', 'slh_dsa_')
        .split('_')
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('')
  ];

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
      const mine = ours[name].keygen();
      const mySig = ours[name].sign(msg, mine.secretKey);
      assert.equal(peer.verify(msg, mySig, mine.publicKey), true);
      mySig[mySig.length - 1] ^= 1;
      assert.equal(peer.verify(msg, mySig, mine.publicKey), false);
    } finally {
      peer.destroy();
    }
  });
}
