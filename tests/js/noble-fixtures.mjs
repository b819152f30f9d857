// Writes noble-fixtures.json: SHA-256 digests of @noble/post-quantum 0.7.1's
// keys and deterministic signatures for all twelve sets (pure with an empty
// context, HashSLH-DSA with SHA-512 and a context), on the inputs of
// inputs.mjs. noble takes seconds per signature on most sets, too long to
// repeat on every test run: peers.test.mjs compares with these digests and
// runs noble live on the two 128f sets. Regenerate with
//   node tests/js/noble-fixtures.mjs "$(bash tests/js/peers.sh)"
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { inputs } from './inputs.mjs';

const peers = process.argv[2];
const noble = await import(pathToFileURL(join(peers, '@noble/post-quantum/slh-dsa.js')));
const { sha512 } = await import(pathToFileURL(join(peers, '@noble/hashes/sha2.js')));
const pkg = JSON.parse(
  (await import('node:fs')).readFileSync(join(peers, '@noble/post-quantum/package.json'), 'utf8')
);
const hex = (b) => createHash('sha256').update(b).digest('hex');
const out = { noble: pkg.version, sets: {} };
for (const [name, set] of Object.entries(noble)) {
  if (!name.startsWith('slh_dsa_')) continue;
  const { seed, msg, context } = inputs(name, set.lengths.seed);
  const { secretKey, publicKey } = set.keygen(seed);
  out.sets[name] = {
    publicKey: hex(publicKey),
    secretKey: hex(secretKey),
    pure: hex(set.sign(msg, secretKey, { extraEntropy: false })),
    sha512: hex(set.prehash(sha512).sign(msg, secretKey, { context, extraEntropy: false })),
  };
  console.error(name, 'done');
}
writeFileSync(new URL('./noble-fixtures.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
