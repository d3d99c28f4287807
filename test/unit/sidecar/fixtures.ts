// Builds PluginSpecs that run the fixture sidecars in test/fixtures/sidecars with this Node.
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PluginSpec, RuntimeBlock } from '../../../src/host/plugins/types';
import type { Logger } from '../../../src/host/log';
import { Sidecar, type SidecarOptions, type SidecarTimeouts } from '../../../src/host/sidecar';
import { scriptPlugin } from '../../support/plugins';

// out/test/unit/sidecar → repo root
export const REPO = path.resolve(__dirname, '../../../..');
export const FIXTURES = path.join(REPO, 'test/fixtures/sidecars');

/** test/fixtures/sidecars/<fixture> as plugin `id`, intercepting input.receive and tool.before unless `runtime` says otherwise. */
export function pluginFor(fixture: string, runtime: Partial<RuntimeBlock> = {}, id = 'fixture'): PluginSpec {
  return scriptPlugin(id, path.join(FIXTURES, fixture), {
    root: FIXTURES,
    version: '1.2.3',
    runtime: { intercepts: ['input.receive', 'tool.before'], ...runtime },
  });
}

export const FAST: Partial<SidecarTimeouts> = {
  handshakeMs: 15000,
  shutdownRequestMs: 2000,
  exitGraceMs: 300,
  reapMs: 2000,
  writeStallMs: 2000,
};

export const SESSION = { sessionId: 'sess-1', workspaceRoot: '/tmp/ws', generation: 3 };

export class MemoryLogger implements Logger {
  lines: string[] = [];
  trace = (m: string) => this.lines.push(`trace ${m}`);
  debug = (m: string) => this.lines.push(`debug ${m}`);
  info = (m: string) => this.lines.push(`info ${m}`);
  warn = (m: string) => this.lines.push(`warn ${m}`);
  error = (m: string) => this.lines.push(`error ${m}`);
}

/** A scratch dir for record files; removed by cleanup(). */
export class Scratch {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'rx-sidecar-'));
  file(name: string): string {
    return path.join(this.dir, name);
  }
  /** Parsed lines of a record file (non-JSON lines come back as strings). */
  records(name: string): unknown[] {
    const f = this.file(name);
    if (!existsSync(f)) return [];
    return readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l)
      .map((l) => {
        try {
          return JSON.parse(l) as unknown;
        } catch {
          return l;
        }
      });
  }
  rawRecords(name: string): string[] {
    const f = this.file(name);
    return existsSync(f)
      ? readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l)
      : [];
  }
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Tracks sidecars so every test can stop whatever it started. */
export class Fleet {
  private all: Sidecar[] = [];
  make(opts: Partial<SidecarOptions> & { plugin: PluginSpec }): Sidecar {
    const s = new Sidecar({ session: SESSION, uiHost: 'desktop', timeouts: FAST, ...opts });
    this.all.push(s);
    return s;
  }
  async stopAll(): Promise<void> {
    await Promise.all(this.all.map((s) => s.stop()));
    this.all = [];
  }
}

/**
 * Mocha wiring shared by the describe blocks that start sidecars: a fleet stopped after each
 * test and a fresh scratch folder per test (`scratch` follows the current test).
 */
export function useFleet(): { readonly fleet: Fleet; readonly scratch: Scratch } {
  const fleet = new Fleet();
  let current: Scratch | undefined;
  beforeEach(() => (current = new Scratch()));
  afterEach(async () => {
    await fleet.stopAll();
    current?.cleanup();
  });
  return {
    fleet,
    get scratch(): Scratch {
      if (!current) throw new Error('scratch is only available inside a test');
      return current;
    },
  };
}

export const INTERCEPT = { event: 'input.receive', seq: 1, payload: { text: 'hi' }, timeoutMillis: 5000 };
