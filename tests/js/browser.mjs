// Runs browser-page.html in Debian's chromium, headless: a tiny static
// server on 127.0.0.1 serves this directory (the page, node_modules with the
// package and noble), chromium loads the page, the page posts its results
// back (serve-and-run-chromium.mjs), and this prints them (exit 1 on any
// failure or after 120 s).
//   node browser.mjs [--bench N]   (from target/js-test, as tests/js/run.sh does)
import { runInChromium } from './serve-and-run-chromium.mjs';

const bench = process.argv[2] === '--bench' ? Number(process.argv[3] || 5) : 0;
const result = await runInChromium({
  root: process.cwd(),
  page: 'browser-page.html',
  query: bench ? `?bench=${bench}` : '',
  timeoutMs: 120_000,
});

let failed = 0;
console.log(`# browser: ${result.userAgent ?? 'unknown'}`);
for (const r of result.results ?? []) {
  console.log(`${r.ok ? 'ok' : 'not ok'} - ${r.name}${r.ok ? '' : '\n  ' + r.error}`);
  if (!r.ok) failed++;
}
if (result.fatal) {
  console.log(`not ok - page: ${result.fatal}`);
  failed++;
}
if (bench) console.log(JSON.stringify({ browser: result.userAgent, timings: result.timings }));

// The package under a strict Content Security Policy (csp-page.html): what
// docs/js.md says a page must allow, and what happens without each part.
const NONCE = "'nonce-slh-dsa-wasm-test'";
const csp = [
  {
    name: "CSP with 'wasm-unsafe-eval' and worker-src blob: loads, signs, verifies and signs in a worker",
    policy: `script-src 'self' ${NONCE} 'wasm-unsafe-eval'; worker-src blob:; object-src 'none'; base-uri 'none'`,
    want: (r) => r.loaded && r.verified && r.signAsync === 'same',
  },
  {
    name: "CSP without worker-src blob:: everything but signAsync works, signAsync rejects",
    policy: `script-src 'self' ${NONCE} 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'`,
    want: (r) => r.loaded && r.verified && String(r.signAsync).startsWith('rejected'),
  },
  {
    name: "CSP without 'wasm-unsafe-eval': the import fails with WebAssembly's error",
    policy: `script-src 'self' ${NONCE}; worker-src blob:; object-src 'none'; base-uri 'none'`,
    want: (r) => r.loaded === false && /WebAssembly|wasm/i.test(r.error),
  },
];
const results = result.results ?? [];
if (!bench) {
  for (const c of csp) {
    const r = await runInChromium({
      root: process.cwd(),
      page: 'csp-page.html',
      timeoutMs: 60_000,
      htmlHeaders: { 'content-security-policy': c.policy },
    });
    const ok = !r.fatal && c.want(r);
    results.push({ name: c.name, ok, error: JSON.stringify(r).slice(0, 500) });
    console.log(`${ok ? 'ok' : 'not ok'} - ${c.name}${ok ? '' : '\n  ' + JSON.stringify(r).slice(0, 500)}`);
    if (!ok) failed++;
  }
}
const count = results.length;
const passed = results.filter((r) => r.ok).length;
console.log(`# browser: ${passed} of ${count} passed`);
process.exit(failed || count === 0 ? 1 : 0);
