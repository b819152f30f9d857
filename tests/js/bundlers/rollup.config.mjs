// rollup -c rollup.config.mjs --environment APP:app,TARGET:browser|node
// As rollup's docs show it: node-resolve to find packages at all, with the
// browser's export conditions (browser: true) or Node's.
import { nodeResolve } from '@rollup/plugin-node-resolve';

const node = process.env.TARGET === 'node';
export default {
  input: `${process.env.APP}.mjs`,
  output: { dir: 'dist', format: 'es', entryFileNames: '[name].mjs' },
  plugins: [nodeResolve(node ? { exportConditions: ['node'] } : { browser: true })],
};
