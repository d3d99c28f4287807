import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimSessionSlot, folderHash } from '../../../src/host/folders';

describe('folders: one session id per window on a folder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rx-slots-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the first window keeps the folder plain id; a second live window gets its own', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const uri = 'file:///work/repo';
      const first = claimSessionSlot(dir, 'vscode-', uri, other.pid!);
      assert.equal(first.sessionId, `vscode-${folderHash(uri)}`);
      assert.equal(first.slot, 1);
      const second = claimSessionSlot(dir, 'vscode-', uri); // this process: another window
      assert.equal(second.slot, 2);
      assert.equal(second.sessionId, `vscode-${folderHash(uri)}-w2`);
      assert.notEqual(first.sessionId, second.sessionId);
      // Another folder is independent.
      assert.equal(claimSessionSlot(dir, 'vscode-', 'file:///work/other').slot, 1);
      second.release();
      second.release();
      assert.equal(claimSessionSlot(dir, 'vscode-', uri).slot, 2, 'the live first window still holds slot 1');
    } finally {
      other.kill();
    }
  });

  it('takes over the slot of a window that is gone, so a reload keeps the plain id', async () => {
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = gone.pid!;
    await new Promise((r) => gone.once('exit', r));
    writeFileSync(join(dir, `${folderHash('file:///w')}.1.lock`), String(pid));
    const s = claimSessionSlot(dir, 'vscode-', 'file:///w');
    assert.equal(s.slot, 1);
    s.release();
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a directory it cannot use falls back to the plain id and says why', () => {
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, '');
    const s = claimSessionSlot(join(file, 'x'), 'vscode-', 'file:///w');
    assert.equal(s.sessionId, `vscode-${folderHash('file:///w')}`);
    assert.ok(s.problem);
  });
});
