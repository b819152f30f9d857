// The app every bundler builds: the package's main entry, one set from it.
import { slh_dsa_sha2_128f } from 'slh-dsa-wasm';
import { runChecks, signerChecks, report, failure } from './checks.mjs';

runChecks(signerChecks('sha2-128f', slh_dsa_sha2_128f))
  .catch((e) => failure('app', e))
  .then((results) => report('app', results));
