// A window of ten folders (issue 43), as a user meets it: the Extensions view lists ten folders,
// every one "not started"; opening a file of one folder starts that folder's extensions and no
// other (its samples running, nine folders still waiting); a click on a waiting folder's row opens
// it and starts it. Screenshots: test-results/folders/.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from './support/paths';
import { prepareReasonixHome, reasonixVsix } from './support/reasonix';
import { useUiSession } from './support/session';
import { waitFor } from '../support/wait';

const NOT_STARTED = 'not started: starts when you use this folder';

describe('a window of ten folders (UI): only the folder in use runs', function () {
  this.timeout(180_000);
  let names: string[] = [];
  const session = useUiSession(() => {
    let file: string | undefined;
    const prepare = (sandbox: string) => {
      if (file) return file;
      const { workspace } = prepareReasonixHome(sandbox);
      const folders: string[] = [];
      for (let i = 1; i <= 10; i++) {
        if (i === 4) {
          folders.push(workspace); // the sample workspace, with the demo files, is the fourth
          continue;
        }
        const dir = join(sandbox, `folder-${String(i).padStart(2, '0')}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `file-${i}.txt`), `folder ${i}\n`);
        folders.push(dir);
      }
      names = folders.map((f) => f.split('/').pop()!);
      file = join(sandbox, 'ten.code-workspace');
      writeFileSync(file, JSON.stringify({ folders: folders.map((path) => ({ path })) }));
      return file;
    };
    return {
      vsix: [reasonixVsix()],
      env: (sandbox) => {
        prepare(sandbox);
        return { REASONIX_HOME: join(sandbox, 'reasonix-home') };
      },
      workspace: prepare,
    };
  });
  const shots = join(resultsDir, 'folders');

  it('lists ten folders not started; a file opened in one starts that folder alone; a click starts another', async () => {
    const wb = session().workbench;
    mkdirSync(shots, { recursive: true });
    await wb.openViewContainer('Reasonix');
    const view = wb.view('Extensions');
    const rows = () => wb.viewRows(view);
    await waitFor(async () => (await rows()).filter((r) => r.includes(NOT_STARTED)).length >= 5, {
      timeoutMs: 60_000,
      what: 'folders shown as not started',
    });
    await new Promise((r) => setTimeout(r, 2000)); // an eager start would show by now
    const first = await rows();
    assert.ok(!first.some((r) => /running/.test(r)), `nothing runs before a folder is used: ${first.join(' | ')}`);
    assert.ok(
      first.some((r) => r.startsWith(names[0]) && r.includes(NOT_STARTED)),
      first.join(' | '),
    );
    await wb.screenshot(join(shots, 'ten-folders-not-started.png'));

    // Open the fourth folder's notes/ideas.md through Quick Open, as a user does.
    await wb.page.keyboard.press('Control+P');
    await wb.page.keyboard.type('ideas.md');
    await waitFor(async () => (await wb.quickPickItems()).some((i) => i.includes('ideas.md')), {
      timeoutMs: 30_000,
      what: 'Quick Open to find ideas.md',
    });
    await wb.page.keyboard.press('Enter');
    await waitFor(
      async () => {
        const now = await rows();
        return (
          now.filter((r) => /running · pid \d+/.test(r)).length === 2 &&
          now.some((r) => r.startsWith(names[3]) && /generation \d+/.test(r))
        );
      },
      { timeoutMs: 60_000, what: "the fourth folder's two samples running" },
    );
    const after = await rows();
    for (const n of [0, 1, 2]) {
      const row = after.find((r) => r.startsWith(names[n]));
      assert.ok(row?.includes(NOT_STARTED), `${names[n]} still waits: ${after.join(' | ')}`);
    }
    await wb.page.mouse.move(5, 5);
    await wb.screenshot(join(shots, 'one-folder-in-use.png'));

    // One click on a waiting folder's row opens its group: a use, so it starts.
    await view.locator('.monaco-list-row').filter({ hasText: names[0] }).first().click();
    await waitFor(async () => (await rows()).filter((r) => /running · pid \d+/.test(r)).length >= 3, {
      timeoutMs: 60_000,
      what: "the first folder's samples running after a click",
    });
    await wb.screenshot(join(shots, 'second-folder-opened.png'));
  });
});
