// Root hooks for every unit test: no test may leave a child process running.
import { waitForNoDescendants } from '../support/orphans';

export const mochaHooks = {
  async afterEach(this: Mocha.Context) {
    const left = await waitForNoDescendants();
    if (left.length) {
      for (const p of left) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      throw new Error(
        `test left ${left.length} process(es) running: ${left.map((p) => `${p.pid} ${p.cmd}`).join('; ')}`,
      );
    }
  },
};
