// The size of each entry of the npm package as a browser or bundler loads
// it: the entry's .mjs and every file of the package it imports, each
// gzipped (-9), summed. Fails (exit 1) when an entry is over its limit,
// naming the entry and its size.
//   node tests/js/sizes.mjs PACKAGE-DIR [--report]   (--report: never fails)
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname, normalize } from 'node:path';

// Bytes, gzipped. Issue 51's targets are 150 KB (all twelve sets), 60 KB (one
// set) and 30 KB (verify only); these limits are what the modules measure
// today with a little room, so that growth fails CI (BENCHMARKS.md, "npm
// package sizes", says what bounds each figure).
const LIMITS = { index: 275_000, verify: 175_000, set: 155_000 };
const TARGETS = { index: 150_000, verify: 30_000, set: 60_000 };

const [dir, flag] = process.argv.slice(2);
const report = flag === '--report';
const files = (entry) => {
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/^import [^'"]*['"](\.[^'"]+)['"]/gm)) walk(normalize(join(dirname(file), m[1])));
  };
  walk(entry);
  return [...seen];
};
let failed = 0;
const entries = readdirSync(dir).filter((f) => f.endsWith('.mjs') && !f.endsWith('.node.mjs'));
for (const e of entries.sort()) {
  const name = e.slice(0, -4);
  const kind = name === 'index' || name === 'verify' ? name : 'set';
  const size = files(e).reduce((s, f) => s + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  const over = size > LIMITS[kind];
  if (over) failed++;
  const note = size <= TARGETS[kind] ? 'within the target' : `target ${TARGETS[kind]}`;
  console.log(`${over ? 'OVER ' : ''}${name}: ${size} bytes gzipped (limit ${LIMITS[kind]}; ${note})`);
}
if (failed && !report) {
  console.error(`sizes: ${failed} entr${failed === 1 ? 'y is' : 'ies are'} over the limit`);
  process.exit(1);
}
