// Serves a directory on 127.0.0.1, opens one page of it in Debian's chromium,
// headless, and waits for the page to POST its JSON result to /result. Used
// by browser.mjs (the package without a bundler) and bundlers/run.mjs (the
// bundles). Resolves to the posted object, or to { fatal } when chromium exits
// or the time runs out first.
//   CHROMIUM   the browser to run (default: chromium)
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join, extname, normalize, sep } from 'node:path';
import { tmpdir } from 'node:os';

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/**
 * root: the directory served; page: its path under root; query: appended to
 * the page's URL; timeoutMs: how long to wait; headHtml: inserted at the top
 * of every HTML file served (e.g. a script that reports load errors);
 * htmlHeaders: extra response headers of every HTML file served (e.g. a
 * Content-Security-Policy).
 */
export async function runInChromium({ root, page, query = '', timeoutMs = 120_000, headHtml = '', htmlHeaders = {} }) {
  root = normalize(root);
  let finish;
  const done = new Promise((resolve) => (finish = resolve));
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (req.method === 'POST' && path === '/result') {
      let body = '';
      for await (const chunk of req) body += chunk;
      res.end('ok');
      try {
        finish(JSON.parse(body));
      } catch (e) {
        finish({ fatal: `the page posted no JSON: ${body.slice(0, 200)}` });
      }
      return;
    }
    const file = normalize(join(root, path === '/' ? page : path));
    if (file !== root && !file.startsWith(root + sep)) return res.writeHead(403).end();
    try {
      let body = await readFile(file);
      if (headHtml && extname(file) === '.html') body = headHtml + body;
      const extra = extname(file) === '.html' ? htmlHeaders : {};
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...extra }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/${page}${query}`;

  const profile = await mkdtemp(join(tmpdir(), 'slh-dsa-chromium-'));
  const args = ['--headless', '--disable-gpu', '--no-first-run', '--no-default-browser-check', `--user-data-dir=${profile}`, url];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox'); // chromium refuses root otherwise
  const browser = spawn(process.env.CHROMIUM ?? 'chromium', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  browser.stderr.on('data', (d) => (stderr += d));
  browser.on('error', (e) => finish({ fatal: `cannot run chromium: ${e.message}` }));
  const exited = new Promise((resolve) => browser.on('close', resolve));
  const timeout = setTimeout(() => finish({ fatal: `no result within ${timeoutMs / 1000} s\n${stderr.slice(-2000)}` }), timeoutMs);
  browser.on('exit', (code) => setTimeout(() => finish({ fatal: `chromium exited (${code}) before reporting\n${stderr.slice(-2000)}` }), 1000));

  const result = await done;
  clearTimeout(timeout);
  browser.kill();
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  server.close();
  server.closeAllConnections();
  await rm(profile, { recursive: true, force: true });
  return result;
}
