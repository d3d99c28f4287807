// Shared helpers for tests that run fixture sidecars through the real Sidecar.
import * as path from 'node:path';
import type { Capability, PluginSpec } from '../../../src/host/plugins/types';
import { scriptPlugin } from '../../support/plugins';

/** Repo root from out/test/unit/<dir>/. */
export const ROOT = path.resolve(__dirname, '../../../..');

export function fixtureSpec(id: string, script: string, args: string[], capabilities: Capability[]): PluginSpec {
  return scriptPlugin(id, path.join(ROOT, 'test/fixtures', script), { args, runtime: { capabilities } });
}

export const SESSION = { sessionId: 'boot-1', workspaceRoot: ROOT, generation: 1 };
