// The body of a signing worker, after glue.js in the worker's source (one
// script, run by worker_threads with eval in Node and from a Blob URL as a
// module Web Worker elsewhere). The first message brings the compiled module
// (or its bytes where a module cannot be posted) and its sets; each later one is a request that `_serve` answers:
// { id, result } or { id, error }.
(function () {
  'use strict';
  let api = null;
  function answer(request) {
    if (request.op === 'init') {
      const compiled = request.module ?? new WebAssembly.Module(request.bytes);
      const instance = new WebAssembly.Instance(compiled, {});
      api = slhDsaApi(instance.exports, request.sets, null);
      return null;
    }
    try {
      return { id: request.id, result: api._serve(request) };
    } catch (e) {
      return { id: request.id, error: e instanceof Error ? e.message : String(e) };
    }
  }
  if (typeof require === 'function' && typeof self === 'undefined') {
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (request) => {
      const reply = answer(request);
      if (reply) parentPort.postMessage(reply);
    });
  } else {
    self.onmessage = (e) => {
      const reply = answer(e.data);
      if (reply) self.postMessage(reply);
    };
  }
})();
