// Signing and verifying speed of several builds of one module, through the
// package's glue, in one run (interleaved; medians of ROUNDS rounds, 5 by
// default): what a size trade (SPHINCS_WASM_OPT_LEVEL, scripts/build-npm)
// costs. Also prints each module's size and gzipped size.
//   node scripts/js-module-speed.cjs PACKAGE-DIR SET A.wasm B.wasm ...
// e.g. node scripts/js-module-speed.cjs target/npm/package SLH-DSA-SHAKE-128f \
//        saved-O3/shake-128f.wasm target/npm/wasm/shake-128f.wasm
'use strict';
const { slhDsaApi } = require(require('path').resolve(process.argv[2], 'lib/glue.cjs'));
const fs = require('fs');
const set = process.argv[3];
const files = process.argv.slice(4);
const apis = files.map((f) => slhDsaApi(new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(f)), {}).exports, [set], null));
const key = 'slh_dsa_' + set.slice(8).toLowerCase().replace('-', '_');
const seed = new Uint8Array(apis[0][key].lengths.seed).fill(7);
const msg = new Uint8Array(100).fill(1);
const res = files.map(() => ({ s: [], v: [] }));
const kp = apis[0][key].keygen(seed);
const sig = apis[0][key].sign(msg, kp.secretKey);
for (let round = 0; round < Number(process.env.ROUNDS || 5); round++) {
  apis.forEach((a, i) => {
    let t = performance.now();
    const s = a[key].sign(msg, kp.secretKey);
    res[i].s.push(performance.now() - t);
    t = performance.now();
    for (let k = 0; k < 10; k++) if (!a[key].verify(sig, msg, kp.publicKey)) throw new Error('verify');
    res[i].v.push((performance.now() - t) / 10);
  });
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(2);
files.forEach((f, i) => console.log(f, fs.statSync(f).size, require('zlib').gzipSync(fs.readFileSync(f), { level: 9 }).length, 'sign ms', med(res[i].s), 'verify ms', med(res[i].v)));
