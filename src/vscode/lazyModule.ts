// Parts of the extension that activation does not need live in bundles of their own beside
// dist/extension.js (esbuild.mjs), required on first use so the activation bundle stays within its
// size budget. Compiled by tsc instead (the unit and in-host tests), the same module is the source
// file's output under out/src/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A loader for `bundle` (a file name in dist/), else `source` (the module's path below src/,
 * without extension); the module is required once, on the loader's first call.
 */
export function lazyModule<T>(bundle: string, source: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      // In the bundle __dirname is dist/; compiled by tsc it is out/src/vscode/.
      const bundled = join(__dirname, bundle);
      const file = existsSync(bundled) ? bundled : join(__dirname, '..', `${source}.js`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require(file) as T;
    }
    return loaded;
  };
}
