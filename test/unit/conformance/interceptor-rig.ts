// Real fixture interceptor sidecars (test/fixtures/interceptors/interceptor.js) behind the real
// Sidecar, for the conformance suites: start them, build a dispatcher, read what each received.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Sidecar } from '../../../src/host/sidecar';
import type { RuntimeBlock } from '../../../src/host/plugins/types';
import { pluginFolder, scriptPlugin } from '../../support/plugins';
import { InterceptDispatcher, interceptClientFor, type DispatcherOptions } from '../../../src/host/intercepts';

export const INTERCEPTOR = resolve(__dirname, '../../../../test/fixtures/interceptors/interceptor.js');

/** See the fixture's header for what each member does. */
export interface Rule {
  decision?: string;
  reason?: string;
  replacement?: unknown;
  never?: boolean;
  crash?: boolean;
  attachEnvelope?: 'received' | 'bad-sha' | 'unknown-ref';
  ruleFile?: string;
}

export interface Recorded {
  kind: 'intercept' | 'event';
  event: string;
  externalized: boolean;
  payload: unknown;
}

export class InterceptorRig {
  readonly dir = mkdtempSync(join(tmpdir(), 'rx-conformance-'));
  private sidecars: Sidecar[] = [];

  private recordFile(id: string): string {
    return join(this.dir, `${id}.ndjson`);
  }

  recorded(id: string): Recorded[] {
    const f = this.recordFile(id);
    return existsSync(f)
      ? readFileSync(f, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Recorded)
      : [];
  }

  intercepts(id: string): Recorded[] {
    return this.recorded(id).filter((r) => r.kind === 'intercept');
  }

  /** The INTERCEPTOR_CONFIG env for plugin `id`. */
  config(id: string, points: Record<string, Rule>): string {
    return JSON.stringify({ record: this.recordFile(id), points });
  }

  async start(id: string, runtime: Partial<RuntimeBlock>, points: Record<string, Rule> = {}): Promise<Sidecar> {
    const plugin = scriptPlugin(id, INTERCEPTOR, {
      root: this.dir,
      runtime: {
        env: { INTERCEPTOR_CONFIG: this.config(id, points) },
        capabilities: runtime.replaces?.length ? ['interceptors', 'strategies'] : ['interceptors'],
        ...runtime,
      },
    });
    const s = new Sidecar({
      plugin,
      session: { sessionId: 's1', workspaceRoot: this.dir, generation: 1 },
      uiHost: 'headless',
      timeouts: { shutdownRequestMs: 1000, exitGraceMs: 200, reapMs: 2000 },
    });
    this.sidecars.push(s);
    await s.start();
    return s;
  }

  async dispatcher(
    specs: Array<[string, Partial<RuntimeBlock>, Record<string, Rule>?]>,
    opts?: DispatcherOptions,
  ): Promise<InterceptDispatcher> {
    const started = await Promise.all(specs.map(([id, rt, pts]) => this.start(id, rt, pts)));
    return new InterceptDispatcher(
      started.map((s, i) => interceptClientFor(s, i)),
      opts,
    );
  }

  /** A plugin folder (for the CLI) running the fixture with these points and runtime members. */
  pluginDir(id: string, runtime: Record<string, unknown>, points: Record<string, Rule>): string {
    return pluginFolder(join(this.dir, 'plugins', id), id, {
      command: process.execPath,
      args: [INTERCEPTOR],
      env: { INTERCEPTOR_CONFIG: this.config(id, points) },
      ...runtime,
    });
  }

  async dispose(): Promise<void> {
    await Promise.all(this.sidecars.map((s) => s.stop()));
    this.sidecars = [];
    rmSync(this.dir, { recursive: true, force: true });
  }
}
