// The JavaScript benchmark (never a test): slh-dsa-wasm side by side with
// @noble/post-quantum 0.7.1 and @oqs/liboqs-js 0.15.1 in one Node process,
// one thread: keygen, sign and verify for all twelve sets; then the
// package's own figures with its portable kernels (the SIMD128 kernels off),
// and chromium's figures for two sets. Prints a Markdown table.
//   tests/js/run.sh node        # once: builds the package and sets up target/js-test
//   node scripts/js-bench.mjs [--quick] [--no-browser] [--sets sha2_128f,shake_128f]
// --quick: noble does not sign on the "s" sets (it takes seconds to
// tens of seconds per "s" signature; without --quick it signs once).
// Each operation's contenders run interleaved, round by round (`race`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';

const root = resolve(new URL('..', import.meta.url).pathname);
const mods = join(root, 'target/js-test/node_modules');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const browser = !args.includes('--no-browser');
const only = args.includes('--sets') ? args[args.indexOf('--sets') + 1].split(',') : null;
const workersOnly = args.includes('--workers-only');
const load = (p) => import(pathToFileURL(join(mods, p)));

const ours = await load('slh-dsa-wasm/index.node.mjs');
const noble = await load('@noble/post-quantum/slh-dsa.js');
const oqs = await load('@oqs/liboqs-js/src/sig.js');
const version = (p) => JSON.parse(readFileSync(join(mods, p, 'package.json'))).version;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Milliseconds per call (the median) of each contender of one operation,
// interleaved: every round calls each contender once, in turn, so a change
// in the machine's speed during the run touches all of them alike and the
// ratios between them hold. One warm-up call each (not for a contender
// marked `once`: a slow peer, called in the first round only); rounds go on
// until `budget` ms have passed, at least `min`, at most `max`.
function race(contenders, { budget = 3000, min = 3, max = 200 } = {}) {
  const live = contenders.filter((c) => c);
  for (const c of live) if (!c.once) c.fn();
  const times = live.map(() => []);
  const start = performance.now();
  for (let r = 0; r < max && (r < min || performance.now() - start < budget); r++) {
    live.forEach((c, i) => {
      if (c.once && r > 0) return;
      const t = performance.now();
      c.fn();
      times[i].push(performance.now() - t);
    });
  }
  const out = {};
  live.forEach((c, i) => (out[c.who] = median(times[i])));
  return out;
}

// The portable kernels of our own module: the same calls with SIMD128 off.
const portably = (fn) => () => {
  ours._portableKernels(true);
  try {
    fn();
  } finally {
    ours._portableKernels(false);
  }
};

const camel = (name) => 'create' + name.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('');
const msg = new TextEncoder().encode('benchmark message, 32 bytes long');
const names = workersOnly ? [] : Object.keys(ours).filter((k) => k.startsWith('slh_dsa_') && (!only || only.some((o) => k.endsWith(o))));
const rows = [];
for (const name of names) {
  const slow = name.endsWith('s');
  const mine = ours[name];
  const k = mine.keygen();
  const sig = mine.sign(msg, k.secretKey);
  const nb = noble[name];
  const nk = nb.keygen();
  // noble's signature for noble to verify; with --quick, an "s" set's is
  // ours under noble's key (the same format), so that --quick never waits
  // for noble's slow signing.
  const nsig = slow && quick ? mine.sign(msg, nk.secretKey) : nb.sign(msg, nk.secretKey);
  const peer = await oqs[camel(name)]();
  const ok = peer.generateKeyPair();
  const osig = peer.sign(msg, ok.secretKey);
  // Time the accepting path: each signature must verify before it is timed.
  if (!mine.verify(sig, msg, k.publicKey) || !nb.verify(nsig, msg, nk.publicKey) || !peer.verify(msg, osig, ok.publicKey)) {
    throw new Error(`${name}: a signature to time does not verify`);
  }
  const port = ours._portableKernels ? portably : null;
  const ops = {
    keygen: [() => mine.keygen(), () => nb.keygen(), () => peer.generateKeyPair()],
    sign: [() => mine.sign(msg, k.secretKey), () => nb.sign(msg, nk.secretKey), () => peer.sign(msg, ok.secretKey)],
    verify: [() => mine.verify(sig, msg, k.publicKey), () => nb.verify(nsig, msg, nk.publicKey), () => peer.verify(msg, osig, ok.publicKey)],
  };
  const row = { name, ours: {}, portable: {}, noble: {}, oqs: {} };
  for (const [op, [fo, fn, fq]] of Object.entries(ops)) {
    const nobleOnce = slow && op !== 'verify';
    const got = race([
      { who: 'ours', fn: fo },
      port && { who: 'portable', fn: port(fo) },
      !(nobleOnce && quick && op === 'sign') && { who: 'noble', fn, once: nobleOnce },
      { who: 'oqs', fn: fq },
    ]);
    for (const [who, ms] of Object.entries(got)) row[who][op] = ms;
  }
  peer.destroy();
  rows.push(row);
  console.error(`${name}: done`);
}

const f = (x) => (x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? '–' : (a / b).toFixed(1) + '×');
const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD']).toString().trim();
console.log(`Node ${process.version}, ${os.cpus()[0].model}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ` +
  `${new Date().toISOString().slice(0, 16)}Z, commit ${commit}; slh-dsa-wasm ${version('slh-dsa-wasm')}, ` +
  `@noble/post-quantum ${version('@noble/post-quantum')}, @oqs/liboqs-js ${version('@oqs/liboqs-js')}; median ms per call, the contenders interleaved.\n`);
console.log('| set | op | ours ms | portable ms | noble ms | liboqs-js ms | noble / ours | liboqs-js / ours | SIMD gain |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  for (const op of ['keygen', 'sign', 'verify']) {
    console.log(`| ${r.name.replace('slh_dsa_', '')} | ${op} | ${f(r.ours[op])} | ${f(r.portable[op])} | ${f(r.noble[op])} | ` +
      `${f(r.oqs[op])} | ${ratio(r.noble[op], r.ours[op])} | ${ratio(r.oqs[op], r.ours[op])} | ${ratio(r.portable[op], r.ours[op])} |`);
  }
}
// signAsync with one signature's trees spread over 1 and 2 workers (this
// machine has 2 cores), interleaved round by round; and what 4 and 8 would
// give by the model: the tree tasks (d XMSS trees, then k FORS trees) in the
// glue's runs, taken in order by whichever worker is free, each tree costing
// its hash calls (the messages and the plan and join on the calling thread
// are left out: they are what separates the model from the measurement).
const PARAMS = { // n is not needed: every call costs about the same
  sha2_128s: { hp: 9, d: 7, a: 12, k: 14, len: 35, s: true }, shake_128s: { hp: 9, d: 7, a: 12, k: 14, len: 35, s: true },
  sha2_128f: { hp: 3, d: 22, a: 6, k: 33, len: 35 }, shake_128f: { hp: 3, d: 22, a: 6, k: 33, len: 35 },
};
function modelSpeedup({ hp, d, a, k, len, s }, workers) {
  const xmss = 2 ** hp * (len + len * 15 + 1) + 2 ** hp - 1; // leaves (PRF, chains, T_len), then H
  const fors = 2 ** a * 2 + 2 ** a - 1;
  const tasks = [...Array(d).fill(xmss), ...Array(k).fill(fors)];
  // The glue's runs: one per tree for an "s" set, else min(tasks, 4 ×
  // workers) contiguous runs of about equal count.
  const runs = s ? tasks.length : Math.min(tasks.length, 4 * workers);
  const cost = (r) => tasks.slice(Math.floor((r * tasks.length) / runs), Math.floor(((r + 1) * tasks.length) / runs)).reduce((x, y) => x + y, 0);
  const free = Array(workers).fill(0);
  for (let r = 0; r < runs; r++) free[free.indexOf(Math.min(...free))] += cost(r);
  return tasks.reduce((x, y) => x + y, 0) / Math.max(...free);
}
async function raceAsync(contenders, { budget = 6000, min = 5, max = 60 } = {}) {
  // Warm-up rounds, 5 s at least (JS_BENCH_WARM_MS): each worker compiles the module with V8's
  // baseline compiler and tiers its hot functions up only after they have
  // run a while (the SHA-2 chain kernel, one large function, runs 1.6× slower
  // before: 40 against 25 ms per XMSS tree of SHA2-128s), so a fresh
  // worker's first signatures are slower than these figures.
  const warm = performance.now();
  for (let r = 0; r < 3 || performance.now() - warm < (Number(process.env.JS_BENCH_WARM_MS) || 5000); r++) for (const c of contenders) await c.fn();
  const times = contenders.map(() => []);
  const start = performance.now();
  for (let r = 0; r < max && (r < min || performance.now() - start < budget); r++) {
    for (const [i, c] of contenders.entries()) {
      const t = performance.now();
      await c.fn();
      times[i].push(performance.now() - t);
    }
  }
  return contenders.map((c, i) => median(times[i]));
}
const spread = [];
for (const short of Object.keys(PARAMS)) {
  const set = ours['slh_dsa_' + short];
  const k = set.keygen();
  const [one, two] = await raceAsync([1, 2].map((workers) => ({ fn: () => set.signAsync(msg, k.secretKey, { workers }) })));
  spread.push({ short, one, two, model: [2, 4, 8].map((w) => modelSpeedup(PARAMS[short], w)) });
  console.error(`${short}: workers done`);
}
ours.terminateWorker();

console.log('\nsignAsync, one signature over 1 and 2 workers (median ms, interleaved); the model\'s speed-up for 2, 4 and 8 workers:\n');
console.log('| set | 1 worker ms | 2 workers ms | speed-up | model ×2 | model ×4 | model ×8 |');
console.log('|---|---|---|---|---|---|---|');
for (const r of spread) {
  console.log(`| ${r.short} | ${f(r.one)} | ${f(r.two)} | ${(r.one / r.two).toFixed(2)}× | ${r.model.map((m) => m.toFixed(2) + '×').join(' | ')} |`);
}
if (browser && !workersOnly) {
  const out = execFileSync('node', ['browser.mjs', '--bench', '5'], { cwd: join(root, 'target/js-test') }).toString();
  const line = out.split('\n').find((l) => l.startsWith('{'));
  const { browser: ua, timings } = JSON.parse(line);
  console.log(`\nChromium (${ua.match(/HeadlessChrome\/[\d.]+/)?.[0] ?? ua}), same machine, mean of 5 calls, ms:\n`);
  console.log('| set | keygen ms | sign ms | verify ms |');
  console.log('|---|---|---|---|');
  for (const [name, t] of Object.entries(timings)) {
    console.log(`| ${name.replace('slh_dsa_', '')} | ${f(t.keygen)} | ${f(t.sign)} | ${f(t.verify)} |`);
  }
}
