// reconcile(): plugin-packages.json changed under a running session (an install, a removal, a
// global enable or disable in Reasonix). Only what changed starts or stops; every other sidecar
// keeps its process. Under a v1 and a v2 manifest, over real sidecars.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FailureInfo, SessionEngine } from '../../../src/host/session';
import { silentLogger } from '../../../src/host/log';
import { testEngine } from '../../support/engine';
import { pluginFolder, pluginFolderV2 } from '../../support/plugins';

const UI = resolve(__dirname, '../../../../test/fixtures/ui/ui.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

for (const protocol of [1, 2] as const) {
  describe(`session reconcile after plugin-packages.json changes (protocol v${protocol}, real sidecars)`, function () {
    this.timeout(20000);
    let dir: string;
    let home: string;
    let engine: SessionEngine | undefined;
    const failures: FailureInfo[] = [];

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'rx-reconcile-'));
      home = join(dir, 'home');
      mkdirSync(home);
      failures.length = 0;
    });
    afterEach(async () => {
      await engine?.stop();
      engine = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    function folder(name: string, runtime: Record<string, unknown> = {}): string {
      const rt = { command: process.execPath, args: [UI], capabilities: ['ui'], ...runtime };
      const root = join(dir, 'pkgs', name);
      return protocol === 1 ? pluginFolder(root, name, rt) : pluginFolderV2(root, name, rt);
    }

    /** Writes plugin-packages.json as Reasonix does: name → enabled. */
    function packages(list: Record<string, boolean>): void {
      const plugins = Object.entries(list).map(([name, enabled]) => ({
        name,
        source: join(dir, 'pkgs', name),
        root: join(dir, 'pkgs', name),
        version: '1.0.0',
        manifestKind: 'reasonix',
        enabled,
      }));
      writeFileSync(join(home, 'plugin-packages.json'), JSON.stringify({ version: 1, plugins }));
    }

    async function start(): Promise<SessionEngine> {
      engine = testEngine({ base: dir, plugins: [], logger: silentLogger, options: { sessionId: 'session-1', home } });
      engine.onStartFailure((f) => failures.push(f));
      await engine.start();
      return engine;
    }

    const pidOf = (e: SessionEngine, id: string) => e.plugins().find((p) => p.pluginId === id)?.pid;
    const stateOf = (e: SessionEngine, id: string) => e.plugins().find((p) => p.pluginId === id)?.state;

    it('an install starts only the new extension; a global disable and a removal stop only theirs', async () => {
      folder('alpha');
      folder('beta');
      folder('gamma');
      packages({ alpha: true, beta: true });
      const e = await start();
      const alpha = pidOf(e, 'alpha');
      const beta = pidOf(e, 'beta');
      assert.ok(alpha && beta, 'both run');
      const generation = e.generation;

      packages({ alpha: true, beta: true, gamma: true }); // reasonix plugin install
      assert.equal(await e.reconcile(), 'in-place');
      assert.equal(stateOf(e, 'gamma'), 'running');
      assert.equal(e.plugins().find((p) => p.pluginId === 'gamma')?.spec?.protocol, protocol);
      assert.equal(pidOf(e, 'alpha'), alpha, 'alpha kept its process');
      assert.equal(pidOf(e, 'beta'), beta, 'beta kept its process');

      packages({ alpha: true, beta: false, gamma: true }); // reasonix plugin disable beta
      assert.equal(await e.reconcile(), 'in-place');
      const b = e.plugins().find((p) => p.pluginId === 'beta');
      assert.equal(b?.state, 'disabled');
      assert.equal(b?.disabledBy, 'reasonix');
      assert.equal(b?.origin, 'installed');
      assert.equal(alive(beta), false, 'beta stopped');
      assert.equal(pidOf(e, 'alpha'), alpha);

      const gamma = pidOf(e, 'gamma') as number;
      packages({ alpha: true, beta: true }); // reasonix plugin enable beta; remove gamma
      assert.equal(await e.reconcile(), 'in-place');
      assert.equal(stateOf(e, 'beta'), 'running');
      assert.equal(stateOf(e, 'gamma'), undefined, 'gamma is gone from the list');
      assert.equal(alive(gamma), false, 'gamma stopped');
      assert.equal(pidOf(e, 'alpha'), alpha, 'alpha still the same process');
      assert.ok(e.generation > generation, 'single starts take the next generation numbers');

      assert.equal(await e.reconcile(), 'unchanged');
      assert.equal(pidOf(e, 'alpha'), alpha);
      assert.deepEqual(failures, []);
    });

    it('a changed package (new runtime) restarts only that extension', async () => {
      folder('alpha');
      folder('beta');
      packages({ alpha: true, beta: true });
      const e = await start();
      const [alpha, beta] = [pidOf(e, 'alpha') as number, pidOf(e, 'beta') as number];
      folder('beta', { args: [UI, 'normal'] });
      assert.equal(await e.reconcile(), 'in-place');
      assert.equal(pidOf(e, 'alpha'), alpha);
      assert.equal(stateOf(e, 'beta'), 'running');
      assert.notEqual(pidOf(e, 'beta'), beta);
      assert.equal(alive(beta), false);
    });

    it('an extension that fails to start in place is reported as failed, the others keep running', async () => {
      folder('alpha');
      folder('broken', { args: ['-e', 'process.exit(3)'] });
      packages({ alpha: true });
      const e = await start();
      const alpha = pidOf(e, 'alpha');
      packages({ alpha: true, broken: true });
      assert.equal(await e.reconcile(), 'in-place');
      assert.equal(stateOf(e, 'broken'), 'failed');
      assert.deepEqual(
        failures.map((f) => f.pluginId),
        ['broken'],
      );
      assert.equal(pidOf(e, 'alpha'), alpha);
    });

    if (protocol === 2)
      it('a provider joining wakes an inactive consumer: dependencies rebuild the generation', async () => {
        const dependent = resolve(__dirname, '../../../../test/fixtures/sidecars/dependent.js');
        const need = { namespace: 'acme', kind: 'index', id: 'search', versionRange: '>=1.0.0,<2.0.0' };
        const has = { namespace: 'acme', kind: 'index', id: 'search', version: '1.4.0' };
        const rt = { command: process.execPath, args: [dependent] };
        pluginFolderV2(join(dir, 'pkgs', 'consumer'), 'consumer', rt, { requires: [need] });
        pluginFolderV2(join(dir, 'pkgs', 'provider'), 'provider', rt, { provides: [has] });
        folder('alpha');
        packages({ alpha: true, consumer: true });
        const e = await start();
        assert.equal(stateOf(e, 'consumer'), 'inactive');
        packages({ alpha: true, consumer: true, provider: true });
        assert.equal(await e.reconcile(), 'rebuilt');
        assert.equal(stateOf(e, 'provider'), 'running');
        assert.equal(stateOf(e, 'consumer'), 'running');
      });

    it('a second owner of a slot joining rebuilds, fails, and leaves the running generation as it was', async () => {
      folder('alpha', { replaces: ['compaction'], capabilities: ['ui', 'interceptors'] });
      folder('beta', { replaces: ['compaction'], capabilities: ['ui', 'interceptors'] });
      packages({ alpha: true });
      const e = await start();
      const alpha = pidOf(e, 'alpha');
      packages({ alpha: true, beta: true });
      await assert.rejects(e.reconcile(), /slot/);
      assert.equal(pidOf(e, 'alpha'), alpha, 'alpha kept its process');
      assert.equal(stateOf(e, 'alpha'), 'running');
    });

    it('a required extension joining is a full, fail-atomic reload', async () => {
      folder('alpha');
      folder('guard', { required: true });
      packages({ alpha: true });
      const e = await start();
      const alpha = pidOf(e, 'alpha') as number;
      packages({ alpha: true, guard: true });
      assert.equal(await e.reconcile(), 'rebuilt');
      assert.equal(stateOf(e, 'guard'), 'running');
      assert.notEqual(pidOf(e, 'alpha'), alpha, 'a new generation: new processes');
      assert.equal(alive(alpha), false);
    });
  });
}
