// Builds the apps of this directory with each bundler, runs every bundle (in
// headless chromium or Node) and the apps as they are under Node, Deno and
// Bun, and prints one line per case: `ok - <bundler>/<target>/<app>` or
// `not ok - ... : <first error line>`; exit 1 if any failed.
//   node run.mjs SCRATCH   (SCRATCH/node_modules holds the tools and the
//                           package, as tests/js/bundlers.sh lays it out)
//   BUNDLERS_ONLY=REGEX    run only the cases whose name matches
//   BUNDLERS_VERBOSE=1     print every failed check in full
// Each case works in SCRATCH/cases/<bundler>-<target>-<app>/ (a copy of the
// sources, its build.log and run.log, the bundle in dist/).
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInChromium } from '../serve-and-run-chromium.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const scratch = resolve(process.argv[2] ?? '.');
const bin = (name) => join(scratch, 'node_modules/.bin', name);
const only = process.env.BUNDLERS_ONLY ? new RegExp(process.env.BUNDLERS_ONLY) : null;
const verbose = process.env.BUNDLERS_VERBOSE === '1';
const BUILD_TIMEOUT = 120_000;
const RUN_TIMEOUT = 60_000;
const APPS = ['app', 'app-entries'];

// A build: [command, ...args] run in the case directory. A run: either
// { node: [command, ...args] } (prints the JSON line) or { page, script }
// (dist/<page> in chromium; without a page, one is written that loads script).
const cases = [];
for (const app of APPS) {
  cases.push(
    { name: `esbuild/browser/${app}`, build: [bin('esbuild'), `${app}.mjs`, '--bundle', '--minify', '--format=esm', '--outdir=dist'], browser: { script: `${app}.js`, module: true } },
    { name: `esbuild/node/${app}`, build: [bin('esbuild'), `${app}.mjs`, '--bundle', '--minify', '--platform=node', '--format=esm', '--outdir=dist', '--out-extension:.js=.mjs'], node: ['node', `dist/${app}.mjs`] },
    { name: `vite/browser/${app}`, html: app, build: [bin('vite'), 'build'], browser: { page: 'index.html' } },
    { name: `vite/node/${app}`, build: [bin('vite'), 'build', '--ssr', `${app}.mjs`], node: ['node', `dist/${app}.mjs`] },
    { name: `webpack/browser/${app}`, build: [bin('webpack'), '--config', 'webpack.config.mjs', '--env', `app=${app}`, '--env', 'target=web'], browser: { script: 'main.js', module: false } },
    { name: `webpack/node/${app}`, build: [bin('webpack'), '--config', 'webpack.config.mjs', '--env', `app=${app}`, '--env', 'target=node'], node: ['node', 'dist/main.cjs'] },
    { name: `rollup/browser/${app}`, build: [bin('rollup'), '-c', 'rollup.config.mjs', '--environment', `APP:${app},TARGET:browser`], browser: { script: `${app}.mjs`, module: true } },
    { name: `rollup/node/${app}`, build: [bin('rollup'), '-c', 'rollup.config.mjs', '--environment', `APP:${app},TARGET:node`], node: ['node', `dist/${app}.mjs`] },
    { name: `none/node/${app}`, node: ['node', `${app}.mjs`] },
    { name: `none/deno/${app}`, node: [bin('deno'), 'run', '--allow-read', '--allow-env', '--node-modules-dir=manual', '--no-lock', `${app}.mjs`], env: { DENO_DIR: join(scratch, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' } },
    { name: `none/bun/${app}`, node: [bin('bun'), `${app}.mjs`], env: { BUN_INSTALL_CACHE_DIR: join(scratch, 'bun-cache') } },
  );
}
cases.push({ name: 'none/node/require', node: ['node', 'require.cjs'] });

// The browser page of a bundle: reports a load or evaluation error that
// stops the app before it can report (a missing file, a throwing module).
const REPORT_ERRORS = `<script>
(() => {
  let sent = false;
  const fatal = (what) => {
    if (sent) return;
    sent = true;
    fetch('/result', { method: 'POST', body: JSON.stringify({ fatal: what }) });
  };
  addEventListener('error', (e) => {
    if (e.target && e.target !== window) fatal('cannot load ' + (e.target.src || e.target.href || e.target.tagName));
    else fatal(String((e.error && e.error.stack) || e.message));
  }, true);
  addEventListener('unhandledrejection', (e) => fatal(String((e.reason && e.reason.stack) || e.reason)));
})();
</script>
`;

/** Runs a command; resolves to { code, out, err, timedOut } (killed with its children at the limit). */
function run(argv, { cwd, env, timeout }) {
  return new Promise((done) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeout);
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ code: -1, out, err: `${err}${e.message}`, timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Leave nothing behind (a bundle's worker that outlives its process).
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      done({ code: code ?? signal, out, err, timedOut });
    });
  });
}

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
// One line, the scratch directory's path left out, at most 300 characters.
const clip = (s) => {
  s = s.replaceAll(`file://${scratch}/`, '').replaceAll(`${scratch}/`, '');
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/** The line of a tool's output that says what went wrong. */
function firstError(text) {
  const lines = stripAnsi(text).split('\n').map((l) => l.trim()).filter(Boolean);
  // rolldown's (vite's) coded errors and causes say more than the lines before them.
  const coded = lines.find((l) => /^\[[A-Z][A-Z_]+\] /.test(l));
  if (coded) return clip(coded);
  const cause = lines.findIndex((l) => l === 'Caused by:');
  if (cause >= 0 && lines[cause + 1]) return clip(lines[cause + 1]);
  const header = /^(error during build:?|Build failed with \d+ errors?:?|✗ Build failed.*|✘ \[ERROR\])$/;
  const errorLine = /^(\S*Error\b|\S*Error \[|✘ \[ERROR\]|\[!\]|ERROR\b|error\b|Uncaught\b|\[vite\]|\[plugin |Cannot\b|failed\b)/;
  const at = lines.findIndex((l) => errorLine.test(l) && !header.test(l));
  if (at < 0) return clip(lines.find((l) => l.length < 400) ?? 'no output');
  let line = lines[at];
  // webpack names the file first and the error on the next line.
  if (/^ERROR in /.test(line) && lines[at + 1]) line += ` ${lines[at + 1]}`;
  return clip(line);
}

/** ok, or the first failed check, from an app's report. */
function judge(report) {
  if (report.fatal) return { ok: false, why: `page: ${firstError(report.fatal)}`, detail: report.fatal };
  const results = report.results ?? [];
  const bad = results.filter((r) => !r.ok);
  if (results.length === 0) return { ok: false, why: 'no checks reported' };
  if (bad.length === 0) return { ok: true };
  return {
    ok: false,
    why: `${bad[0].name}: ${firstError(bad[0].error ?? '')}${bad.length > 1 ? ` (${bad.length} of ${results.length} checks failed)` : ''}`,
    detail: bad.map((r) => `${r.name}: ${r.error}`).join('\n'),
  };
}

function lastJsonLine(out) {
  for (const line of out.trim().split('\n').reverse()) {
    try {
      return JSON.parse(line);
    } catch {}
  }
  return null;
}

async function runCase(c) {
  const dir = join(scratch, 'cases', c.name.replaceAll('/', '-'));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const f of await readdir(here)) {
    if (/\.(mjs|cjs)$/.test(f) && f !== 'run.mjs') await cp(join(here, f), join(dir, f));
  }
  if (c.html) await writeFile(join(dir, 'index.html'), `<!doctype html>\n<html><head><meta charset="utf-8"><title>${c.html}</title></head>\n<body><script type="module" src="./${c.html}.mjs"></script></body></html>\n`);
  const log = (file, r) => writeFile(join(dir, file), `$ exit ${r.code}${r.timedOut ? ' (timed out)' : ''}\n--- stdout\n${r.out}\n--- stderr\n${r.err}`);

  if (c.build) {
    const r = await run(c.build, { cwd: dir, env: { NO_COLOR: '1' }, timeout: BUILD_TIMEOUT });
    await log('build.log', r);
    if (r.timedOut) return { ok: false, why: `build: no end within ${BUILD_TIMEOUT / 1000} s` };
    if (r.code !== 0) return { ok: false, why: `build: ${firstError(`${r.err}\n${r.out}`)}`, detail: `${r.out}\n${r.err}` };
  }
  if (c.node) {
    const r = await run(c.node, { cwd: dir, env: c.env ?? {}, timeout: RUN_TIMEOUT });
    await log('run.log', r);
    const report = lastJsonLine(r.out);
    if (r.timedOut) return { ok: false, why: `no exit within ${RUN_TIMEOUT / 1000} s${report ? ` (${judge(report).ok ? 'after reporting success' : judge(report).why})` : ''}` };
    if (!report) return { ok: false, why: `exit ${r.code}: ${firstError(r.err || r.out)}`, detail: r.err };
    const verdict = judge(report);
    if (verdict.ok && r.code !== 0) return { ok: false, why: `exit ${r.code} after reporting success: ${firstError(r.err)}` };
    return verdict;
  }
  const dist = join(dir, 'dist');
  let page = c.browser.page;
  if (!page) {
    page = 'harness.html';
    if (!existsSync(join(dist, c.browser.script))) return { ok: false, why: `build: no dist/${c.browser.script}` };
    const tag = c.browser.module ? `<script type="module" src="./${c.browser.script}"></script>` : `<script src="./${c.browser.script}"></script>`;
    await writeFile(join(dist, page), `<!doctype html>\n<html><head><meta charset="utf-8"></head><body>${tag}</body></html>\n`);
  }
  const report = await runInChromium({ root: dist, page, timeoutMs: RUN_TIMEOUT, headHtml: REPORT_ERRORS });
  await writeFile(join(dir, 'run.log'), JSON.stringify(report, null, 2));
  return judge(report);
}

let passed = 0;
let failed = 0;
const started = Date.now();
for (const c of cases) {
  if (only && !only.test(c.name)) continue;
  let verdict;
  try {
    verdict = await runCase(c);
  } catch (e) {
    verdict = { ok: false, why: `harness: ${firstError(String(e.stack || e))}` };
  }
  if (verdict.ok) passed++;
  else failed++;
  console.log(verdict.ok ? `ok - ${c.name}` : `not ok - ${c.name} : ${verdict.why}`);
  if (!verdict.ok && verbose && verdict.detail) console.log(verdict.detail.replace(/^/gm, '#   '));
}
console.log(`# bundlers: ${Math.round((Date.now() - started) / 1000)} s; logs in ${join(scratch, 'cases')}/`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || passed === 0 ? 1 : 0);
