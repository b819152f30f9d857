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
const count = (result.results ?? []).length;
const passed = (result.results ?? []).filter((r) => r.ok).length;
console.log(`# browser: ${passed} of ${count} passed`);
process.exit(failed || count === 0 ? 1 : 0);
