// webpack --config webpack.config.mjs --env app=app --env target=web|node
// The defaults otherwise (dist/, topLevelAwait, asset and worker handling of
// new URL(..., import.meta.url)); a Node bundle is CommonJS, hence .cjs.
import { fileURLToPath } from 'node:url';

export default (env) => ({
  mode: 'production',
  target: env.target,
  entry: `./${env.app}.mjs`,
  output: {
    path: fileURLToPath(new URL('./dist', import.meta.url)),
    filename: env.target === 'node' ? '[name].cjs' : '[name].js',
  },
});
