// The JavaScript face of the WebAssembly module: noble's SLH-DSA surface
// (set objects with keygen, sign, verify, lengths, prehash) plus RFC 9909 key
// files, batch verification and signing in workers, over the C-ABI exports of
// crates/js. Lengths, names, errors and encodings are the Rust core's.
//
// A plain script with one function and no import or export: build.mjs makes
// it an ES module, a CommonJS module and part of the workers' source, so the
// same text runs in every entry, in every runtime and in the workers.
//
//   wasm: the instance's exports; sets: the FIPS 205 names this module has;
//   workers: () => a worker-like object (see load-*.js), or null in a worker.
// eslint-disable-next-line no-unused-vars
function slhDsaApi(wasm, sets, workers) {
  'use strict';
  const EMPTY = new Uint8Array(0);
  const OK = 0;
  const ID = Symbol('slh-dsa-wasm set number');
  const OID = Symbol('slh-dsa-wasm pre-hash OID');
  const signs = typeof wasm.slhjs_sign === 'function';

  // --- arguments and replies ---------------------------------------------

  // The intrinsic getters, not the object's own properties: a view whose own
  // `length` lies cannot make the glue allocate or copy by it.
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
  const tagOf = Object.getOwnPropertyDescriptor(typedArray, Symbol.toStringTag).get;
  const lengthOf = Object.getOwnPropertyDescriptor(typedArray, 'length').get;
  const bufferOf = Object.getOwnPropertyDescriptor(typedArray, 'buffer').get;

  function bytes(value, what) {
    if (tagOf.call(value) !== 'Uint8Array') {
      const kind = value === null ? 'null' : typeof value === 'object' ? Object.prototype.toString.call(value).slice(8, -1) : typeof value;
      throw new TypeError(`"${what}" expected Uint8Array, got ${kind}`);
    }
    // A detached buffer reads as empty; say so instead of signing nothing.
    if (lengthOf.call(value) === 0) {
      const buffer = bufferOf.call(value);
      if (buffer instanceof ArrayBuffer) {
        try {
          new Uint8Array(buffer);
        } catch {
          throw new TypeError(`"${what}" is a view of a detached ArrayBuffer`);
        }
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

  // Copies `args` (checked Uint8Arrays) into module buffers, runs fn(...lead,
  // each argument's pointer and length, ...trail), reads the reply and
  // releases everything, wiped, whatever happens on the way (a trap, a throw
  // between two copies); a reply of the core's error throws it as an Error.
  function call(fn, args, lead = [], trail = []) {
    const lens = args.map((a) => lengthOf.call(a));
    const ptrs = [];
    let reply = 0;
    try {
      for (const len of lens) ptrs.push(wasm.slhjs_alloc(len));
      const mem = new Uint8Array(wasm.memory.buffer); // after the allocations: memory may grow
      args.forEach((a, i) => mem.set(a, ptrs[i]));
      const flat = [];
      ptrs.forEach((p, i) => flat.push(p, lens[i]));
      reply = fn(...lead, ...flat, ...trail);
    } finally {
      ptrs.forEach((p, i) => wasm.slhjs_free(p, lens[i]));
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

  // `extraEntropy` as noble takes it: absent = fresh randomness (hedged),
  // false = deterministic, bytes = this randomness.
  function entropy(extra, n) {
    if (extra === undefined) return random(n);
    if (extra === false) return EMPTY;
    return bytes(extra, 'extraEntropy');
  }

  function u32(v) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    return b;
  }

  function concat(parts) {
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  function decodeText(b) {
    const text = new TextDecoder().decode(b);
    b.fill(0);
    return text;
  }

  // --- one parameter set ---------------------------------------------------

  const byId = new Map(); // set number -> set object
  const byName = new Map(); // FIPS 205 name -> set object

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
      const keys = { publicKey: out.slice(0, lengths.publicKey), secretKey: out.slice(lengths.publicKey) };
      out.fill(0);
      return keys;
    };
    const getPublicKey = (secretKey) => call(wasm.slhjs_public_key, [bytes(secretKey, 'secretKey')], [id]);
    const verifier = (oid) => (sig, msg, publicKey, opts) => {
      const { context = EMPTY } = options(opts, ['context']);
      const args = [bytes(publicKey, 'publicKey'), bytes(msg, 'msg'), bytes(sig, 'sig'), bytes(context, 'context'), oid];
      return call(wasm.slhjs_verify, args, [id])[0] === 1;
    };
    const signer = (oid) => (msg, secretKey, opts) => {
      const { context = EMPTY, extraEntropy } = options(opts, ['context', 'extraEntropy']);
      const rnd = entropy(extraEntropy, lengths.signRand);
      const args = [bytes(secretKey, 'secretKey'), bytes(msg, 'msg'), bytes(context, 'context'), oid, rnd];
      return call(wasm.slhjs_sign, args, [0, id]);
    };
    const publicFiles = {
      publicKeyToPem: (pk) => decodeText(call(wasm.slhjs_public_key_to_spki, [bytes(pk, 'publicKey')], [id], [1])),
      publicKeyToDer: (pk) => call(wasm.slhjs_public_key_to_spki, [bytes(pk, 'publicKey')], [id], [0]),
    };
    const signing = (oid) =>
      signs
        ? {
            keygen,
            getPublicKey,
            sign: signer(oid),
            signAsync: (msg, secretKey, opts) => signAsync(name, oid, msg, secretKey, opts),
            secretKeyToPem: (sk) => decodeText(call(wasm.slhjs_secret_key_to_pkcs8, [bytes(sk, 'secretKey')], [id], [1])),
            secretKeyToDer: (sk) => call(wasm.slhjs_secret_key_to_pkcs8, [bytes(sk, 'secretKey')], [id], [0]),
          }
        : {};
    const internal = {
      info: Object.freeze({ type: 'internal-slh-dsa' }),
      lengths,
      verify(sig, msg, publicKey, opts) {
        options(opts, []);
        const args = [bytes(publicKey, 'publicKey'), bytes(msg, 'msg'), bytes(sig, 'sig')];
        return call(wasm.slhjs_verify_internal, args, [id])[0] === 1;
      },
    };
    if (signs) {
      Object.assign(internal, {
        keygen,
        getPublicKey,
        sign(msg, secretKey, opts) {
          const { extraEntropy } = options(opts, ['extraEntropy']);
          const rnd = entropy(extraEntropy, lengths.signRand);
          return call(wasm.slhjs_sign_internal, [bytes(secretKey, 'secretKey'), bytes(msg, 'msg'), rnd], [id]);
        },
      });
    }
    const set = {
      info: Object.freeze({ type: 'slh-dsa' }),
      internal: Object.freeze(internal),
      securityLevel: lengths.signRand * 8,
      lengths,
      verify: verifier(EMPTY),
      ...signing(EMPTY),
      prehash(hash) {
        if (typeof hash !== 'function' || tagOf.call(hash.oid) !== 'Uint8Array') {
          throw new TypeError('"hash" expected a hash function with an .oid (noble-hashes)');
        }
        const oid = hash.oid.slice();
        return Object.freeze({
          info: Object.freeze({ type: 'hashslh-dsa' }),
          lengths,
          verify: verifier(oid),
          ...signing(oid),
          ...publicFiles,
          [ID]: id,
          [OID]: oid,
        });
      },
      ...publicFiles,
      [ID]: id,
      [OID]: EMPTY,
    };
    return Object.freeze(set);
  }

  for (const name of sets) {
    const set = makeSet(name);
    byId.set(set[ID], set);
    byName.set(name, set);
  }

  // --- beyond noble: key files, batches ------------------------------------

  function readKey(fn, input) {
    if (typeof input === 'string') input = new TextEncoder().encode(input);
    const out = call(fn, [bytes(input, 'key')]);
    const set = byId.get(new DataView(out.buffer).getUint32(0, true));
    if (!set) {
      out.fill(0);
      throw new Error(`the key's parameter set is not in this entry of slh-dsa-wasm (it has ${sets.join(', ')})`);
    }
    return { set, hashMode: out[4] === 1, rest: out.subarray(5) };
  }

  /** Reads an RFC 9909 PKCS#8 secret key (PEM string or DER bytes). */
  function importSecretKey(input) {
    const { set, hashMode, rest } = readKey(wasm.slhjs_secret_key_from_pkcs8, input);
    const n = set.lengths.publicKey;
    const key = { algorithm: set, hashMode, publicKey: rest.slice(0, n), secretKey: rest.slice(n) };
    rest.fill(0);
    return key;
  }

  /** Reads an RFC 9909 SubjectPublicKeyInfo (PEM string or DER bytes). */
  function importPublicKey(input) {
    const { set, hashMode, rest } = readKey(wasm.slhjs_public_key_from_spki, input);
    return { algorithm: set, hashMode, publicKey: rest.slice() };
  }

  /** Verifies many signatures in one call; one boolean per item, false for
   * one that does not verify or cannot be checked. */
  function verifyBatch(items) {
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
        parts.push(u32(lengthOf.call(b)), b);
      }
    }
    return Array.from(call(wasm.slhjs_verify_batch, [concat(parts)]), (v) => v === 1);
  }

  // --- signing in workers ----------------------------------------------------

  // Workers started on first use and kept while the process lives (each
  // idle one lets it exit); pool[0] signs whole signatures, and
  // { workers: N } spreads one signature's trees over pool[0..N).
  const pool = [];
  const pending = new Map(); // request number -> { resolve, reject, worker }
  let nextRequest = 0;

  function worker(i) {
    if (pool[i]) return pool[i];
    if (!workers) throw new Error('signAsync is not available here (no workers)');
    const w = workers();
    w.load = 0;
    w.onReply((reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      settle(w);
      if (reply.error !== undefined) p.reject(new Error(reply.error));
      else p.resolve(reply.result);
    });
    w.onError((e) => {
      pool[pool.indexOf(w)] = undefined;
      for (const [id, p] of pending) {
        if (p.worker !== w) continue;
        pending.delete(id);
        p.reject(e instanceof Error ? e : new Error(String(e)));
      }
      w.terminate();
    });
    pool[i] = w;
    return w;
  }

  function settle(w) {
    w.load -= 1;
    if (w.load === 0) w.idle();
  }

  // Posts one request to worker i; settles when it answers. A request that
  // cannot be posted (DataCloneError) rejects and leaves the worker idle.
  function post(i, request) {
    const w = worker(i);
    return new Promise((resolve, reject) => {
      const id = nextRequest++;
      pending.set(id, { resolve, reject, worker: w });
      w.load += 1;
      w.busy();
      try {
        w.post({ ...request, id });
      } catch (e) {
        pending.delete(id);
        settle(w);
        reject(e);
      }
    });
  }

  function workerCount(n) {
    if (n === undefined) return 1;
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new RangeError('"workers" expected an integer from 1 to 64');
    return n;
  }

  function signAsync(name, oid, msg, secretKey, opts) {
    return new Promise((resolve, reject) => {
      // Everything is checked here, before anything is posted: an option a
      // worker could not receive is a TypeError, not a stuck worker.
      const { context = EMPTY, extraEntropy, workers: n } = options(opts, ['context', 'extraEntropy', 'workers']);
      const request = { name, oid, msg: bytes(msg, 'msg'), secretKey: bytes(secretKey, 'secretKey'), context: bytes(context, 'context') };
      const count = workerCount(n);
      const set = byName.get(name);
      const rnd = entropy(extraEntropy, set.lengths.signRand);
      if (count === 1) {
        resolve(post(0, { op: 'sign', ...request, rnd }));
        return;
      }
      resolve(signSpread(set, request, rnd, count));
    });
  }

  // One signature over `count` workers: the plan (R and the digest) here,
  // each worker computing trees as it frees up, the WOTS+ signatures that
  // join them here. The same bytes as on one worker.
  async function signSpread(set, request, rnd, count) {
    const id = set[ID];
    const planned = call(wasm.slhjs_sign, [request.secretKey, request.msg, request.context, request.oid, rnd], [1, id]);
    const tasks = new DataView(planned.buffer).getUint32(0, true);
    const plan = planned.subarray(4);
    // Runs of contiguous tasks, taken by whichever worker is free: an "s"
    // set's trees are few and large, one per message; an "f" set's are many
    // and small, four runs per worker (one message each way per run).
    const runs = request.name.endsWith('s') ? tasks : Math.min(tasks, count * 4);
    const outputs = new Array(runs);
    let next = 0;
    const work = async (i) => {
      while (next < runs) {
        const r = next++;
        const [first, end] = [Math.floor((r * tasks) / runs), Math.floor(((r + 1) * tasks) / runs)];
        outputs[r] = await post(i, { op: 'task', name: request.name, secretKey: request.secretKey, plan, first, end });
      }
    };
    await Promise.all(Array.from({ length: Math.min(count, runs) }, (_, i) => work(i)));
    const packed = concat(outputs);
    return call(wasm.slhjs_sign_finish, [request.secretKey, plan, packed], [id]);
  }

  /** Stops the signing workers (a later signAsync starts new ones). */
  function terminateWorker() {
    for (const w of pool.splice(0)) if (w) w.terminate();
    for (const p of pending.values()) p.reject(new Error('the signing worker was stopped'));
    pending.clear();
  }

  // The body of a worker's request (worker.js); the secret key's copy this
  // worker received is wiped whatever happens.
  function serve(request) {
    try {
      const set = byName.get(request.name);
      if (!set) throw new Error(`unknown parameter set ${request.name}`);
      if (request.op === 'task') {
        // Tasks first..end-1, each as a u32 length and its output.
        const out = [];
        for (let task = request.first; task < request.end; task++) {
          const part = call(wasm.slhjs_sign_task, [request.secretKey, request.plan], [set[ID]], [task]);
          out.push(u32(part.length), part);
        }
        return concat(out);
      }
      return call(wasm.slhjs_sign, [request.secretKey, request.msg, request.context, request.oid, request.rnd], [0, set[ID]]);
    } finally {
      if (tagOf.call(request.secretKey) === 'Uint8Array') request.secretKey.fill(0);
    }
  }

  const api = { importPublicKey, verifyBatch };
  if (signs) Object.assign(api, { importSecretKey, terminateWorker, _serve: serve });
  /** Benchmarks only: true runs later calls on the portable hash kernels. */
  api._portableKernels = (on) => wasm.slhjs_portable_kernels(on ? 1 : 0);
  /** Tests only: the module's memory (what a call left behind). */
  api._moduleMemory = () => wasm.memory.buffer;
  for (const [name, set] of byName) api['slh_dsa_' + name.slice(8).toLowerCase().replace('-', '_')] = set;
  return api;
}
