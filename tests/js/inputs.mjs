// The fixed inputs of the comparisons with the peers: a seed, message and
// context per set, derived from its name (the same in every run).
import { createHash } from 'node:crypto';

function stream(label, len) {
  const out = new Uint8Array(len);
  for (let i = 0, block = 0; i < len; block++) {
    const d = createHash('sha256').update(`${label}/${block}`).digest();
    out.set(d.subarray(0, Math.min(32, len - i)), i);
    i += 32;
  }
  return out;
}

export function inputs(name, seedLen) {
  return {
    seed: stream(`${name}/seed`, seedLen),
    msg: stream(`${name}/message`, 100),
    context: stream(`${name}/context`, 7),
  };
}
