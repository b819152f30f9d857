// The signing worker behind signAsync: a worker_threads worker in Node, a
// module Web Worker in browsers. It loads the package once and signs each
// request it is sent, answering { id, signature } or { id, error }.
const inNode = typeof process !== 'undefined' && !!process.versions?.node;

function answer(api, request) {
  try {
    return { id: request.id, signature: api._serve(request) };
  } catch (e) {
    return { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
}

if (inNode) {
  const { parentPort } = await import('node:worker_threads');
  const api = await import('./node.js');
  parentPort.on('message', (request) => parentPort.postMessage(answer(api, request)));
} else {
  // Listen at once (requests may arrive while the module still loads).
  const api = import('./browser.js');
  self.addEventListener('message', async (e) => self.postMessage(answer(await api, e.data)));
}
