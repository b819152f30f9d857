// The package's entry in browsers: fetches slh-dsa.wasm beside this file
// during module evaluation (top-level await), so every set is ready once
// `import` returns; signAsync runs in a module Web Worker (worker.js).
import { _install } from './api.js';

const url = new URL('./slh-dsa.wasm', import.meta.url);
let instance;
try {
  ({ instance } = await WebAssembly.instantiateStreaming(fetch(url)));
} catch {
  // A server that does not send application/wasm: compile from the bytes.
  const response = await fetch(url);
  ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer()));
}
_install(instance.exports, () => {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return {
    post: (m) => w.postMessage(m),
    onReply: (cb) => w.addEventListener('message', (e) => cb(e.data)),
    onError: (cb) => w.addEventListener('error', (e) => cb(new Error(e.message))),
    terminate: () => w.terminate(),
    busy: () => {},
    idle: () => {},
  };
});

export * from './api.js';
