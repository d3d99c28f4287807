// Builds throwaway Reasonix homes for discovery tests.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TempHome {
  dir: string;
  /** Writes plugin-packages.json (an object is JSON-encoded, a string written verbatim). */
  packages(doc: unknown): Promise<void>;
  /** Writes `<dir>/<rel>/reasonix-plugin.json` and returns the package root. */
  manifest(rel: string, doc: unknown): Promise<string>;
  remove(): Promise<void>;
}

export async function makeTempHome(): Promise<TempHome> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reasonix-home-'));
  return {
    dir,
    async packages(doc) {
      await fs.writeFile(path.join(dir, 'plugin-packages.json'), typeof doc === 'string' ? doc : JSON.stringify(doc));
    },
    async manifest(rel, doc) {
      const root = path.join(dir, rel);
      await fs.mkdir(root, { recursive: true });
      await fs.writeFile(path.join(root, 'reasonix-plugin.json'), typeof doc === 'string' ? doc : JSON.stringify(doc));
      return root;
    },
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** A valid v1 manifest running node, overridable per test. */
export function v1Manifest(
  name: string,
  runtime: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'reasonix.io/plugin/v1',
    name,
    version: '1.2.3',
    runtime: { command: process.execPath, ...runtime },
    ...top,
  };
}
