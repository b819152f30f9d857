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
const names = Object.keys(ours).filter((k) => k.startsWith('slh_dsa_') && (!only || only.some((o) => k.endsWith(o))));
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
if (browser) {
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
