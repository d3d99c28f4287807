// The client's `fs/*` policy without Reasonix: a path must be inside the session's folder (`..` and
// symlinks resolved), a read is sliced by `line`/`limit`, a missing file is ACP's resource-not-found,
// and the face's errors become JSON-RPC errors naming the file.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { insideFolder, MAX_READ_CHARS, SessionFiles, sliceLines, type DocumentAccess } from '../../../src/host/acp';

describe('fs/* served inside the session folder', () => {
  let dir: string;
  let folder: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rx-files-'));
    folder = path.join(dir, 'ws');
    mkdirSync(path.join(folder, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'secret.txt'), 'outside');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(folder, 'link.txt'));
    symlinkSync(dir, path.join(folder, 'up'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const refused = (file: unknown) =>
    assert.throws(
      () => insideFolder(folder, file),
      (err: unknown) => err instanceof RequestError && err.code === -32602 && /outside|absolute/.test(err.message),
    );

  it('takes absolute paths inside the folder, existing or not', () => {
    assert.equal(insideFolder(folder, path.join(folder, 'src', 'a.ts')), path.join(folder, 'src', 'a.ts'));
    assert.equal(insideFolder(folder, path.join(folder, 'new', 'b.ts')), path.join(folder, 'new', 'b.ts'));
    assert.equal(insideFolder(folder, path.join(folder, 'src', '..', 'c.ts')), path.join(folder, 'c.ts'));
  });

  it('refuses relative paths, the folder itself, .. out of it, and symlinks that lead out', () => {
    refused('src/a.ts');
    refused(42);
    refused(folder);
    refused(path.join(folder, '..', 'secret.txt'));
    refused(path.join(dir, 'secret.txt'));
    refused(path.join(folder, 'link.txt'));
    refused(path.join(folder, 'up', 'secret.txt'));
    refused(path.join(folder, 'up', 'ws-sibling', 'new.txt'));
  });

  it('slices a read by line (1-based) and limit, keeping line ends', () => {
    const t = 'one\ntwo\nthree\nfour';
    assert.equal(sliceLines(t), t);
    assert.equal(sliceLines(t, 2), 'two\nthree\nfour');
    assert.equal(sliceLines(t, 2, 2), 'two\nthree\n');
    assert.equal(sliceLines(t, null, 1), 'one\n');
    assert.equal(sliceLines(t, 9, 2), '');
    assert.equal(sliceLines(t, 0, 0), '');
  });

  it('reads and writes through the documents; a missing file is resource-not-found; their errors name the file', async () => {
    const texts = new Map<string, string>([[path.join(folder, 'a.txt'), 'unsaved 1\nunsaved 2\n']]);
    const docs: DocumentAccess = {
      read: async (f) => texts.get(f),
      write: async (f, c) => {
        if (f.endsWith('locked.txt')) throw new Error('the file is read-only');
        texts.set(f, c);
      },
    };
    const files = new SessionFiles(folder, docs);
    assert.deepEqual(await files.read({ path: path.join(folder, 'a.txt'), line: 2, limit: 1 }), {
      content: 'unsaved 2\n',
    });
    await assert.rejects(
      files.read({ path: path.join(folder, 'nope.txt') }),
      (err: RequestError) => err.code === -32002,
    );
    assert.deepEqual(await files.write({ path: path.join(folder, 'b.txt'), content: 'b' }), {});
    assert.equal(texts.get(path.join(folder, 'b.txt')), 'b');
    await assert.rejects(
      files.write({ path: path.join(folder, 'locked.txt'), content: 'x' }),
      (err: RequestError) =>
        err.code === -32603 && /could not write .*locked\.txt: the file is read-only/.test(err.message),
    );
    await assert.rejects(
      files.write({ path: path.join(dir, 'secret.txt'), content: 'x' }),
      (err: RequestError) => err.code === -32602,
    );
    assert.equal(texts.has(path.join(dir, 'secret.txt')), false);
    texts.set(path.join(folder, 'big.txt'), 'x'.repeat(MAX_READ_CHARS + 1));
    await assert.rejects(files.read({ path: path.join(folder, 'big.txt') }), /read it in windows/);
    assert.equal((await files.read({ path: path.join(folder, 'big.txt'), line: 1, limit: 0 })).content, '');
  });
});
