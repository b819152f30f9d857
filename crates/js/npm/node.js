// The package's entry in Node: loads slh-dsa.wasm beside this file during
// module evaluation (top-level await), so every set is ready once `import`
// returns; signAsync runs in a worker_threads worker (worker.js).
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { _install } from './api.js';

const { instance } = await WebAssembly.instantiate(
  await readFile(new URL('./slh-dsa.wasm', import.meta.url))
);
_install(instance.exports, () => {
  const w = new Worker(new URL('./worker.js', import.meta.url));
  w.unref(); // an idle worker does not keep the process alive
  return {
    post: (m) => w.postMessage(m),
    onReply: (cb) => w.on('message', cb),
    onError: (cb) => w.on('error', cb),
    terminate: () => w.terminate(),
    busy: () => w.ref(),
    idle: () => w.unref(),
  };
});

export * from './api.js';
