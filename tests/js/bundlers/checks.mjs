// The checks the bundled apps run, and how they report: one JSON line on
// stdout outside a browser, a POST of the same JSON to /result in one (the
// page is served by ../serve-and-run-chromium.mjs). Every check catches its
// own error, so a result always comes back: { app, results: [{ name, ok, error }] }.

const SEED = Uint8Array.from({ length: 48 }, (_, i) => i);
const MSG = new TextEncoder().encode('slh-dsa-wasm, bundled');
const CONTEXT = Uint8Array.of(1, 2, 3);
const SIGN = { context: CONTEXT, extraEntropy: false };

// SHA-256 of the public key and of the deterministic signature above: FIPS
// 205's answers (@noble/post-quantum 0.7.1 gives the same), so a bundle that
// runs but computes wrongly fails too.
export const EXPECTED = {
  'sha2-128f': {
    publicKey: 'f577b74987c6313ffa546b8885ca8450c7f427c20f0d9b52d166264016b8beba',
    signature: '87dcb0026c6e216d7911c629437af4c2d1d303514d9358535deff083ad570483',
  },
  'shake-128f': {
    publicKey: '99197c0060fec43eaefd42ebb68848f66cf3b2db814670dee2ac5c37d4aade64',
    signature: '695faa5c3a7794439813f5535362f60a2bdaabd1b50ad28decfd5772c8832571',
  },
};

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function assert(cond, what) {
  if (!cond) throw new Error(`failed: ${what}`);
}

const same = (a, b) => a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);

// Rejects after `ms` instead of waiting forever (a worker that never answers).
function within(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A list of checks run in order; each later one may use what an earlier one left. */
export async function runChecks(list) {
  const results = [];
  for (const [name, fn] of list) {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (e) {
      results.push({ name, ok: false, error: String((e && e.stack) || e) });
    }
  }
  return results;
}

/** A failed result for something that went wrong before any check could run. */
export const failure = (name, e) => [{ name, ok: false, error: String((e && e.stack) || e) }];

/** The checks of one signing set (`set` as imported; `label` a key of EXPECTED). */
export function signerChecks(label, set, state = {}) {
  const want = EXPECTED[label];
  return [
    [`${label}: keygen from a seed`, async () => {
      state.keys = set.keygen(SEED);
      assert(state.keys.publicKey.length === set.lengths.publicKey, 'public key length');
      assert(state.keys.secretKey.length === set.lengths.secretKey, 'secret key length');
      assert((await sha256(state.keys.publicKey)) === want.publicKey, 'the expected public key');
    }],
    [`${label}: deterministic sign`, async () => {
      assert(state.keys, 'keygen passed');
      state.sig = set.sign(MSG, state.keys.secretKey, SIGN);
      assert(state.sig.length === set.lengths.signature, 'signature length');
      assert(same(state.sig, set.sign(MSG, state.keys.secretKey, SIGN)), 'the same signature twice');
      assert((await sha256(state.sig)) === want.signature, 'the expected signature');
    }],
    [`${label}: verify`, () => {
      assert(state.sig, 'sign passed');
      assert(set.verify(state.sig, MSG, state.keys.publicKey, { context: CONTEXT }) === true, 'the signature verifies');
      const tampered = MSG.slice();
      tampered[0] ^= 1;
      assert(set.verify(state.sig, tampered, state.keys.publicKey, { context: CONTEXT }) === false, 'a tampered message fails');
    }],
    [`${label}: signAsync`, async () => {
      assert(state.sig, 'sign passed');
      const sig = await within(20_000, set.signAsync(MSG, state.keys.secretKey, SIGN), 'signAsync');
      assert(same(sig, state.sig), 'signAsync equals sign');
      const spread = await within(20_000, set.signAsync(MSG, state.keys.secretKey, { ...SIGN, workers: 2 }), 'signAsync on 2 workers');
      assert(same(spread, state.sig), 'signAsync on 2 workers equals sign');
    }],
  ];
}

/** The checks of a verify-only set against a signature made by `state` (signerChecks'). */
export function verifierChecks(label, verifier, state) {
  return [
    [`${label} (verify entry): verify`, () => {
      assert(state.sig, 'sign passed');
      assert(verifier.lengths.signature === state.sig.length, 'lengths');
      assert(verifier.verify(state.sig, MSG, state.keys.publicKey, { context: CONTEXT }) === true, 'the signature verifies');
      assert(verifier.verify(state.sig, MSG, state.keys.publicKey) === false, 'another context fails');
      assert(typeof verifier.prehash === 'function', 'prehash');
    }],
    [`${label} (verify entry): no signing`, () => {
      assert(verifier.keygen === undefined && verifier.sign === undefined && verifier.signAsync === undefined, 'no keygen, sign or signAsync');
    }],
  ];
}

/** Reports the results: POST /result in a browser, one JSON line elsewhere. */
export async function report(app, results) {
  const body = JSON.stringify({ app, results });
  if (typeof document !== 'undefined') {
    await fetch('/result', { method: 'POST', body });
  } else {
    console.log(body);
  }
}
