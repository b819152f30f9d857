// CommonJS: require('slh-dsa-wasm') and the same checks as app.mjs.
'use strict';
let slh, loadError;
try {
  slh = require('slh-dsa-wasm');
} catch (e) {
  loadError = e;
}
import('./checks.mjs').then(async ({ runChecks, signerChecks, report, failure }) => {
  const results = loadError ? failure("require('slh-dsa-wasm')", loadError) : await runChecks(signerChecks('sha2-128f', slh.slh_dsa_sha2_128f));
  await report('require', results);
});
