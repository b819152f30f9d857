// NIST ACVP vectors for FIPS 205 (keyGen, sigGen, sigVer), the files the
// Rust tests read (crates/sphincs/tests/data), through the npm package: pure,
// HashSLH-DSA and internal. sigVer runs every case; keyGen every case of
// the "f" sets and the first of each "s" set; sigGen, per "f" set,
// interface, pure or pre-hash and deterministic or not, the first two cases,
// and the first case of each "s" set (a signature takes up to seconds in
// WebAssembly; all of sigGen took 14 minutes on the loaded CI machine).
// SPHINCS_JS_ACVP_ALL=1 runs every case of all three files (the Rust suite
// always does, on every backend). Each case runs on the full entry and on
// its set's own entry (slh-dsa-wasm/sha2-128f, ...), sigVer also on the
// verify-only entry: each is a module of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import * as slh from 'slh-dsa-wasm';
import * as verifyOnly from 'slh-dsa-wasm/verify';
import * as sha2 from '@noble/hashes/sha2.js';
import * as sha3 from '@noble/hashes/sha3.js';

const data = process.env.SPHINCS_VECTORS;
assert.ok(data, 'SPHINCS_VECTORS names crates/sphincs/tests/data');

function load(name, operation) {
  const doc = JSON.parse(gunzipSync(readFileSync(join(data, name))).toString());
  assert.equal(doc.operation, operation);
  assert.equal(doc.cases.length, doc.count);
  return doc.cases;
}

const ALL = process.env.SPHINCS_JS_ACVP_ALL === '1';

// The cases to run: all, or the first `f` of each group of like cases of
// an "f" set (interface, pure or pre-hash, deterministic or not) and the
// first case of each "s" set.
function selection(cases, f) {
  if (ALL) return cases;
  const seen = new Map();
  return cases.filter((c) => {
    const fast = c.parameterSet.endsWith('f');
    const key = fast
      ? [c.parameterSet, c.interface, c.preHash === 'pure', c.deterministic].join('/')
      : c.parameterSet;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return seen.get(key) <= (fast ? f : 1);
  });
}

const hex = (s) => Uint8Array.from(Buffer.from(s ?? '', 'hex'));
const jsName = (name) => name.toLowerCase().replaceAll('-', '_');
// The one-set entries, by FIPS 205 name.
const alone = new Map();
for (const name of Object.keys(slh).filter((k) => k.startsWith('slh_dsa_'))) {
  const entry = name.slice('slh_dsa_'.length).replace('_', '-');
  alone.set(name, (await import(`slh-dsa-wasm/${entry}`))[name]);
}
const ENTRIES = {
  full: (name) => slh[jsName(name)],
  'one-set': (name) => alone.get(jsName(name)),
  'verify-only': (name) => verifyOnly[jsName(name)],
};
let set = ENTRIES.full;

// ACVP's pre-hash names -> noble-hashes' functions (which carry the OID).
const prehashes = {
  'SHA2-224': sha2.sha224,
  'SHA2-256': sha2.sha256,
  'SHA2-384': sha2.sha384,
  'SHA2-512': sha2.sha512,
  'SHA2-512/224': sha2.sha512_224,
  'SHA2-512/256': sha2.sha512_256,
  'SHA3-224': sha3.sha3_224,
  'SHA3-256': sha3.sha3_256,
  'SHA3-384': sha3.sha3_384,
  'SHA3-512': sha3.sha3_512,
  'SHAKE-128': sha3.shake128,
  'SHAKE-256': sha3.shake256,
};

function signer(c) {
  const s = set(c.parameterSet);
  assert.ok(s, c.parameterSet);
  if (c.interface === 'internal') return s.internal;
  if (c.preHash === 'pure') return s;
  return s.prehash(prehashes[c.preHash]);
}

function assertEverySet(cases) {
  for (const c of cases) assert.ok(set(c.parameterSet), `unknown set ${c.parameterSet}`);
  const seen = new Set(cases.map((c) => c.parameterSet));
  assert.equal(seen.size, 12, 'cases for all twelve sets');
}

for (const entry of ['full', 'one-set']) test(`ACVP keyGen (${entry} entry)`, () => {
  set = ENTRIES[entry];
  const cases = selection(load('keygen.json.gz', 'keygen'), Infinity);
  assertEverySet(cases);
  for (const c of cases) {
    const seed = hex(c.skSeed + c.skPrf + c.pkSeed);
    const { publicKey, secretKey } = set(c.parameterSet).keygen(seed);
    assert.equal(Buffer.from(publicKey).toString('hex').toUpperCase(), c.pk, `tcId ${c.tcId}`);
    assert.equal(Buffer.from(secretKey).toString('hex').toUpperCase(), c.sk, `tcId ${c.tcId}`);
  }
});

for (const entry of ['full', 'one-set', 'verify-only']) test(`ACVP sigVer: every case (${entry} entry)`, () => {
  set = ENTRIES[entry];
  const cases = load('sigver.json.gz', 'sigver');
  assertEverySet(cases);
  let valid = 0;
  for (const c of cases) {
    const s = signer(c);
    const opts = c.interface === 'internal' ? undefined : { context: hex(c.context) };
    let got;
    try {
      got = s.verify(hex(c.signature), hex(c.message), hex(c.pk), opts);
    } catch (e) {
      got = `threw ${e.message}`;
    }
    assert.equal(got, c.testPassed, `tcId ${c.tcId} (${c.parameterSet}, ${c.interface}, ${c.preHash})`);
    if (got === true) valid++;
  }
  assert.ok(valid > 0 && valid < cases.length, 'both outcomes occur');
});

for (const entry of ['full', 'one-set']) test(`ACVP sigGen: deterministic and with given randomness (${entry} entry)`, () => {
  set = ENTRIES[entry];
  const cases = selection(load('siggen.json.gz', 'siggen'), 2);
  assertEverySet(cases);
  assert.ok(cases.some((c) => c.deterministic) && cases.some((c) => !c.deterministic));
  assert.ok(cases.some((c) => c.interface === 'internal') && cases.some((c) => c.preHash !== 'pure'));
  for (const c of cases) {
    const s = signer(c);
    const opts = { extraEntropy: c.deterministic ? false : hex(c.additionalRandomness) };
    if (c.interface !== 'internal') opts.context = hex(c.context);
    const sig = s.sign(hex(c.message), hex(c.sk), opts);
    const digest = createHash('sha256').update(sig).digest('hex').toUpperCase();
    assert.equal(digest, c.signatureSha256.toUpperCase(), `tcId ${c.tcId} (${c.parameterSet}, ${c.interface}, ${c.preHash})`);
  }
});
