// Runs browser-page.html in Debian's chromium, headless: a tiny static
// server on 127.0.0.1 serves this directory (the page, node_modules with the
// package and noble), chromium loads the page, the page posts its results
// back, and this prints them (exit 1 on any failure or after 120 s).
//   node browser.mjs [--bench N]   (from target/js-test, as tests/js/run.sh does)
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join, extname, normalize } from 'node:path';
import { tmpdir } from 'node:os';

const root = process.cwd();
const bench = process.argv[2] === '--bench' ? Number(process.argv[3] || 5) : 0;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

let finish;
const done = new Promise((resolve) => (finish = resolve));
const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (req.method === 'POST' && path === '/result') {
    let body = '';
    for await (const chunk of req) body += chunk;
    res.end('ok');
    finish(JSON.parse(body));
    return;
  }
  const file = normalize(join(root, path === '/' ? 'browser-page.html' : path));
  if (!file.startsWith(root)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/browser-page.html${bench ? `?bench=${bench}` : ''}`;

const profile = await mkdtemp(join(tmpdir(), 'slh-dsa-chromium-'));
const args = ['--headless', '--disable-gpu', '--no-first-run', '--no-default-browser-check', `--user-data-dir=${profile}`, url];
if (process.getuid?.() === 0) args.unshift('--no-sandbox'); // chromium refuses root otherwise
const browser = spawn(process.env.CHROMIUM ?? 'chromium', args, { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
browser.stderr.on('data', (d) => (stderr += d));
const exited = new Promise((resolve) => browser.on('exit', resolve));
const timeout = setTimeout(() => finish({ fatal: 'no result within 120 s\n' + stderr.slice(-2000) }), 120_000);
browser.on('exit', (code) => setTimeout(() => finish({ fatal: `chromium exited (${code}) before reporting\n${stderr.slice(-2000)}` }), 1000));

const result = await done;
clearTimeout(timeout);
browser.kill();
await exited;
server.close();
await rm(profile, { recursive: true, force: true });

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
