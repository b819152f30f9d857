// The JavaScript face of the WebAssembly module: noble's SLH-DSA surface
// (twelve set objects with keygen, sign, verify, lengths, prehash) plus RFC
// 9909 key files, batch verification and signing in a worker. Every call
// copies its arguments into the module, calls one export of crates/js and
// copies the reply out; lengths, names, errors and encodings are the Rust
// core's. The entries node.js and browser.js load the module and call
// install() before anything else runs, so every binding below is set once
// `import` has returned.

const SETS = [
  ['slh_dsa_sha2_128f', 'SLH-DSA-SHA2-128f'],
  ['slh_dsa_sha2_128s', 'SLH-DSA-SHA2-128s'],
  ['slh_dsa_sha2_192f', 'SLH-DSA-SHA2-192f'],
  ['slh_dsa_sha2_192s', 'SLH-DSA-SHA2-192s'],
  ['slh_dsa_sha2_256f', 'SLH-DSA-SHA2-256f'],
  ['slh_dsa_sha2_256s', 'SLH-DSA-SHA2-256s'],
  ['slh_dsa_shake_128f', 'SLH-DSA-SHAKE-128f'],
  ['slh_dsa_shake_128s', 'SLH-DSA-SHAKE-128s'],
  ['slh_dsa_shake_192f', 'SLH-DSA-SHAKE-192f'],
  ['slh_dsa_shake_192s', 'SLH-DSA-SHAKE-192s'],
  ['slh_dsa_shake_256f', 'SLH-DSA-SHAKE-256f'],
  ['slh_dsa_shake_256s', 'SLH-DSA-SHAKE-256s'],
];

export let slh_dsa_sha2_128f, slh_dsa_sha2_128s, slh_dsa_sha2_192f, slh_dsa_sha2_192s;
export let slh_dsa_sha2_256f, slh_dsa_sha2_256s, slh_dsa_shake_128f, slh_dsa_shake_128s;
export let slh_dsa_shake_192f, slh_dsa_shake_192s, slh_dsa_shake_256f, slh_dsa_shake_256s;

let wasm; // the module's exports
const byId = new Map(); // set number -> set object
const ID = Symbol('slh-dsa-wasm set number');
const OID = Symbol('slh-dsa-wasm pre-hash OID');
const EMPTY = new Uint8Array(0);
const OK = 0;

// --- arguments and replies ---------------------------------------------------

function bytes(value, what) {
  if (!(value instanceof Uint8Array)) {
    throw new TypeError(`"${what}" expected Uint8Array, got ${value === null ? 'null' : typeof value}`);
  }
  // A detached buffer reads as empty; say so instead of signing nothing.
  if (value.length === 0 && value.buffer instanceof ArrayBuffer) {
    try {
      new Uint8Array(value.buffer);
    } catch {
      throw new TypeError(`"${what}" is a view of a detached ArrayBuffer`);
    }
  }
  return value;
}

function options(opts, allowed) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object') throw new TypeError('options expected object');
  for (const key of Object.keys(opts)) {
    if (!allowed.includes(key)) throw new Error(`unknown option "${key}"`);
  }
  return opts;
}

// Copies `args` (Uint8Arrays) into module buffers, runs fn(...lead, each
// argument's pointer and length, ...trail), reads the reply and releases
// everything (wiped); a reply of the core's error throws it as an Error.
function call(fn, args, lead = [], trail = []) {
  const ptrs = args.map((a) => wasm.slhjs_alloc(a.length));
  const mem = new Uint8Array(wasm.memory.buffer);
  args.forEach((a, i) => mem.set(a, ptrs[i]));
  const flat = [];
  args.forEach((a, i) => flat.push(ptrs[i], a.length));
  let reply;
  try {
    reply = fn(...lead, ...flat, ...trail);
  } finally {
    args.forEach((a, i) => wasm.slhjs_free(ptrs[i], a.length));
  }
  const view = new DataView(wasm.memory.buffer);
  const total = view.getUint32(reply, true);
  const status = view.getUint32(reply + 4, true);
  const payload = new Uint8Array(wasm.memory.buffer, reply + 8, total - 8).slice();
  wasm.slhjs_reply_free(reply);
  if (status !== OK) throw new Error(new TextDecoder().decode(payload));
  return payload;
}

function random(n) {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

// `extraEntropy` as noble takes it: absent = fresh randomness (hedged), false
// = deterministic, bytes = this randomness.
function entropy(extra, n) {
  if (extra === undefined) return random(n);
  if (extra === false) return EMPTY;
  return bytes(extra, 'extraEntropy');
}

// --- one parameter set -----------------------------------------------------------

function makeSet(name) {
  const info = new DataView(call(wasm.slhjs_algorithm, [new TextEncoder().encode(name)]).buffer);
  const field = (i) => info.getUint32(4 * i, true);
  const id = field(0);
  const lengths = Object.freeze({
    publicKey: field(1),
    secretKey: field(2),
    signature: field(3),
    seed: field(4),
    signRand: field(5),
  });
  const keygen = (seed) => {
    seed = seed === undefined ? random(lengths.seed) : bytes(seed, 'seed');
    const out = call(wasm.slhjs_keygen, [seed], [id]);
    const keys = {
      publicKey: out.slice(0, lengths.publicKey),
      secretKey: out.slice(lengths.publicKey),
    };
    out.fill(0);
    return keys;
  };
  const getPublicKey = (secretKey) =>
    call(wasm.slhjs_public_key, [bytes(secretKey, 'secretKey')], [id]);
  const signer = (oid) => ({
    sign(msg, secretKey, opts) {
      const { context = EMPTY, extraEntropy } = options(opts, ['context', 'extraEntropy']);
      const rnd = entropy(extraEntropy, lengths.signRand);
      const args = [bytes(secretKey, 'secretKey'), bytes(msg, 'msg'), bytes(context, 'context'), oid, rnd];
      return call(wasm.slhjs_sign, args, [id]);
    },
    verify(sig, msg, publicKey, opts) {
      const { context = EMPTY } = options(opts, ['context']);
      const args = [bytes(publicKey, 'publicKey'), bytes(msg, 'msg'), bytes(sig, 'sig'), bytes(context, 'context'), oid];
      return call(wasm.slhjs_verify, args, [id])[0] === 1;
    },
  });
  const keyFiles = {
    secretKeyToPem: (sk) => decodeText(call(wasm.slhjs_secret_key_to_pkcs8, [bytes(sk, 'secretKey')], [id], [1])),
    secretKeyToDer: (sk) => call(wasm.slhjs_secret_key_to_pkcs8, [bytes(sk, 'secretKey')], [id], [0]),
    publicKeyToPem: (pk) => decodeText(call(wasm.slhjs_public_key_to_spki, [bytes(pk, 'publicKey')], [id], [1])),
    publicKeyToDer: (pk) => call(wasm.slhjs_public_key_to_spki, [bytes(pk, 'publicKey')], [id], [0]),
  };
  const pure = signer(EMPTY);
  const internal = Object.freeze({
    info: Object.freeze({ type: 'internal-slh-dsa' }),
    lengths,
    keygen,
    getPublicKey,
    sign(msg, secretKey, opts) {
      const { extraEntropy } = options(opts, ['extraEntropy']);
      const rnd = entropy(extraEntropy, lengths.signRand);
      return call(wasm.slhjs_sign_internal, [bytes(secretKey, 'secretKey'), bytes(msg, 'msg'), rnd], [id]);
    },
    verify(sig, msg, publicKey, opts) {
      options(opts, []);
      const args = [bytes(publicKey, 'publicKey'), bytes(msg, 'msg'), bytes(sig, 'sig')];
      return call(wasm.slhjs_verify_internal, args, [id])[0] === 1;
    },
  });
  const set = {
    info: Object.freeze({ type: 'slh-dsa' }),
    internal,
    securityLevel: lengths.signRand * 8,
    lengths,
    keygen,
    getPublicKey,
    sign: pure.sign,
    verify: pure.verify,
    signAsync: (msg, secretKey, opts) => signInWorker(name, EMPTY, msg, secretKey, opts),
    prehash(hash) {
      if (typeof hash !== 'function' || !(hash.oid instanceof Uint8Array)) {
        throw new TypeError('"hash" expected a hash function with an .oid (noble-hashes)');
      }
      const oid = hash.oid.slice();
      const pre = signer(oid);
      return Object.freeze({
        info: Object.freeze({ type: 'hashslh-dsa' }),
        lengths,
        keygen,
        getPublicKey,
        sign: pre.sign,
        verify: pre.verify,
        signAsync: (msg, secretKey, opts) => signInWorker(name, oid, msg, secretKey, opts),
        ...keyFiles,
        [ID]: id,
        [OID]: oid,
      });
    },
    ...keyFiles,
    [ID]: id,
    [OID]: EMPTY,
  };
  return Object.freeze(set);
}

function decodeText(b) {
  const text = new TextDecoder().decode(b);
  b.fill(0);
  return text;
}

// --- beyond noble: key files, batches, workers ---------------------------------

function readKey(fn, input) {
  if (typeof input === 'string') input = new TextEncoder().encode(input);
  const out = call(fn, [bytes(input, 'key')]);
  const head = new DataView(out.buffer);
  const set = byId.get(head.getUint32(0, true));
  return { set, hashMode: out[4] === 1, rest: out.subarray(5) };
}

/** Reads an RFC 9909 PKCS#8 secret key (PEM string or DER bytes). */
export function importSecretKey(input) {
  const { set, hashMode, rest } = readKey(wasm.slhjs_secret_key_from_pkcs8, input);
  const n = set.lengths.publicKey;
  const key = { algorithm: set, hashMode, publicKey: rest.slice(0, n), secretKey: rest.slice(n) };
  rest.fill(0);
  return key;
}

/** Reads an RFC 9909 SubjectPublicKeyInfo (PEM string or DER bytes). */
export function importPublicKey(input) {
  const { set, hashMode, rest } = readKey(wasm.slhjs_public_key_from_spki, input);
  return { algorithm: set, hashMode, publicKey: rest.slice() };
}

/**
 * Verifies many signatures in one call; one boolean per item, false for an
 * item that does not verify or cannot be checked (wrong key length, context
 * over 255 bytes). Items: { algorithm, signature, message, publicKey, context? },
 * `algorithm` a set object or its prehash(hash) object.
 */
export function verifyBatch(items) {
  if (!Array.isArray(items)) throw new TypeError('verifyBatch expected an array');
  const parts = [u32(items.length)];
  for (const it of items) {
    const set = it && it.algorithm;
    if (!set || set[ID] === undefined) throw new TypeError('item.algorithm expected a set object of this package');
    parts.push(u32(set[ID]));
    for (const [b, what] of [
      [it.publicKey, 'publicKey'],
      [it.message, 'message'],
      [it.signature, 'signature'],
      [it.context ?? EMPTY, 'context'],
      [set[OID], 'oid'],
    ]) {
      bytes(b, what);
      parts.push(u32(b.length), b);
    }
  }
  const packed = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    packed.set(p, at);
    at += p.length;
  }
  return Array.from(call(wasm.slhjs_verify_batch, [packed]), (v) => v === 1);
}

function u32(v) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
}

// Signing off the main thread: one worker (worker.js, which imports this
// package again), started on first use, answering requests by number.
let worker = null;
let nextRequest = 0;
const pending = new Map();
let startWorker = null; // set by the entry: () => a worker-like object

function signInWorker(name, oid, msg, secretKey, opts) {
  return new Promise((resolve, reject) => {
    // Argument errors surface as a rejected promise, as the worker's would.
    const { context = EMPTY, extraEntropy } = options(opts, ['context', 'extraEntropy']);
    const request = {
      id: nextRequest++,
      name,
      oid,
      msg: bytes(msg, 'msg'),
      secretKey: bytes(secretKey, 'secretKey'),
      context: bytes(context, 'context'),
      extraEntropy,
    };
    if (!worker) {
      worker = startWorker();
      worker.onError((e) => {
        for (const p of pending.values()) p.reject(e instanceof Error ? e : new Error(String(e)));
        pending.clear();
        worker = null;
      });
      worker.onReply((reply) => {
        const p = pending.get(reply.id);
        pending.delete(reply.id);
        if (pending.size === 0) worker.idle();
        if (reply.error !== undefined) p.reject(new Error(reply.error));
        else p.resolve(reply.signature);
      });
    }
    pending.set(request.id, { resolve, reject });
    worker.busy();
    worker.post(request);
  });
}

/** Benchmarks only: true runs later calls on the portable hash kernels
 * instead of the SIMD128 ones (scripts/js-bench.mjs compares the two). */
export function _portableKernels(on) {
  wasm.slhjs_portable_kernels(on ? 1 : 0);
}

/** Stops the signing worker (a later signAsync starts a new one). */
export function terminateWorker() {
  if (worker) worker.terminate();
  worker = null;
  for (const p of pending.values()) p.reject(new Error('the signing worker was stopped'));
  pending.clear();
}

/** The body of a worker request (used by worker.js). */
export function _serve(request) {
  const base = byName.get(request.name);
  if (!base) throw new Error(`unknown parameter set ${request.name}`);
  const hash = Object.assign(() => {}, { oid: request.oid });
  const signer = request.oid.length === 0 ? base : base.prehash(hash);
  const opts = { context: request.context };
  if (request.extraEntropy !== undefined) opts.extraEntropy = request.extraEntropy;
  return signer.sign(request.msg, request.secretKey, opts);
}

const byName = new Map();

/** Called once by the entry module with the module's exports and the worker starter. */
export function _install(exports, workerStarter) {
  wasm = exports;
  startWorker = workerStarter;
  const made = {};
  for (const [js, name] of SETS) {
    made[js] = makeSet(name);
    byId.set(made[js][ID], made[js]);
    byName.set(name, made[js]);
  }
  ({
    slh_dsa_sha2_128f, slh_dsa_sha2_128s, slh_dsa_sha2_192f, slh_dsa_sha2_192s,
    slh_dsa_sha2_256f, slh_dsa_sha2_256s, slh_dsa_shake_128f, slh_dsa_shake_128s,
    slh_dsa_shake_192f, slh_dsa_shake_192s, slh_dsa_shake_256f, slh_dsa_shake_256s,
  } = made);
}
