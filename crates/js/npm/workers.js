// How each runtime gets the module's bytes and starts signing workers: plain
// script, after glue.js in lib/glue.mjs and lib/glue.cjs (build.mjs). The
// workers run `source` (glue.js and worker-main.js as one string), so no
// bundler has a worker file or a .wasm file to find or copy.

// The module's bytes from the package's deflated base64 text, in a browser.
// eslint-disable-next-line no-unused-vars
async function inflateText(text) {
  const packed = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The first message of a worker: the compiled module where the runtime can
// post one (the workers then share its machine code, optimised tiers
// included, instead of each compiling its own and starting on the baseline
// tier), else its bytes.
function initWorker(w, wasm, sets) {
  try {
    w.postMessage({ op: 'init', module: wasm.compiled, sets });
  } catch {
    w.postMessage({ op: 'init', bytes: wasm.bytes, sets });
  }
}

// Module Web Workers from a Blob URL (browsers, Deno, Bun). In a page they
// stay for its life; elsewhere an idle one must not keep the process alive:
// unref'd where the runtime can (Bun), else ended and started again on the
// next request (Deno).
// eslint-disable-next-line no-unused-vars
function webWorkers(source, wasm, sets) {
  let url = null;
  const page = typeof window !== 'undefined' || typeof WorkerGlobalScope !== 'undefined';
  return () => {
    let w = null;
    let replies = () => {};
    let errors = () => {};
    const start = () => {
      url ??= URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      w = new Worker(url, { type: 'module' });
      w.addEventListener('message', (e) => replies(e.data));
      w.addEventListener('error', (e) => {
        if (e.preventDefault) e.preventDefault();
        errors(new Error(e.message || 'the signing worker failed'));
      });
      initWorker(w, wasm, sets);
    };
    return {
      post(m) {
        if (!w) start();
        w.postMessage(m);
      },
      onReply: (cb) => (replies = cb),
      onError: (cb) => (errors = cb),
      terminate() {
        if (w) w.terminate();
        w = null;
      },
      busy() {
        if (w && typeof w.ref === 'function') w.ref();
      },
      idle() {
        if (!w || page) return;
        if (typeof w.unref === 'function') {
          w.unref();
        } else {
          w.terminate();
          w = null;
        }
      },
    };
  };
}

// worker_threads workers running `source` with eval (Node); unref'd while
// idle, so that they never keep the process alive.
// eslint-disable-next-line no-unused-vars
function nodeWorkers(Worker, source, wasm, sets) {
  return () => {
    // execArgv: [] — the parent's flags (--input-type=module, say) would
    // make the source an ES module, without `require`.
    const w = new Worker(source, { eval: true, execArgv: [] });
    w.unref();
    initWorker(w, wasm, sets);
    return {
      post: (m) => w.postMessage(m),
      onReply: (cb) => w.on('message', cb),
      onError: (cb) => w.on('error', cb),
      terminate: () => w.terminate(),
      busy: () => w.ref(),
      idle: () => w.unref(),
    };
  };
}
