// The second app: the per-set entries and the verify-only entry.
import { slh_dsa_shake_128f } from 'slh-dsa-wasm/shake-128f';
import { slh_dsa_sha2_128f } from 'slh-dsa-wasm/sha2-128f';
import { slh_dsa_sha2_128f as verifier } from 'slh-dsa-wasm/verify';
import { runChecks, signerChecks, verifierChecks, report, failure } from './checks.mjs';

const signed = {};
runChecks([
  ...signerChecks('shake-128f', slh_dsa_shake_128f),
  ...signerChecks('sha2-128f', slh_dsa_sha2_128f, signed),
  ...verifierChecks('sha2-128f', verifier, signed),
])
  .catch((e) => failure('app-entries', e))
  .then((results) => report('app-entries', results));
