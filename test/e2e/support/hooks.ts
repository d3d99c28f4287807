// Root hooks for the UI tests: after each test (and its session teardown) nothing it started
// may still run: no code-server, extension host or Chromium left behind (for a describe-wide
// session: after its last test).
import { waitForNoDescendants } from '../../support/orphans';
import { sharedSessionOpen } from './session';

export const mochaHooks = {
  async afterEach(this: Mocha.Context) {
    this.timeout(30_000);
    // A describe-wide session checks for leftovers itself, after its last test.
    if (sharedSessionOpen()) return;
    const left = await waitForNoDescendants(10_000);
    if (left.length === 0) return;
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    throw new Error(`test left ${left.length} process(es) running: ${left.map((p) => `${p.pid} ${p.cmd}`).join('; ')}`);
  },
};
