// The docs cite the protocol digests; these tests keep the citations true. The digests are kept
// verbatim in docs/protocol/ (copied from the shared protocol folder, never edited), and
// docs/conformance.md maps every v2 conformance case to the tests that prove it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const REPO = resolve(__dirname, '..', '..', '..');
const read = (p: string) => readFileSync(join(REPO, p), 'utf8');

/** Every *.test.ts under `dir`. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/** The V2-n cases of the digest's §14, in order. */
function digestCases(): string[] {
  return [...read('docs/protocol/HOST_SPEC_V2.md').matchAll(/^\* (V2-\d+)\. /gm)].map((m) => m[1]);
}

/** The conformance map's rows: case → the test files its last cell names (none for an open row). */
function mapRows(): Map<string, { files: string[]; open: boolean }> {
  const rows = new Map<string, { files: string[]; open: boolean }>();
  for (const line of read('docs/conformance.md').split('\n')) {
    const m = /^\| (V2-\d+) \|.*\| ([^|]+) \|$/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]), `${m[1]} is listed twice in docs/conformance.md`);
    const files = [...m[2].matchAll(/`([^`]+\.test\.ts)`/g)].map((f) => f[1]);
    rows.set(m[1], { files, open: /^open: /.test(m[2].trim()) });
  }
  return rows;
}

describe('docs: the protocol citations resolve', () => {
  it('the digests in docs/protocol are present, and HOST_SPEC_V2 has its 53 cases', () => {
    for (const f of ['HOST_SPEC.md', 'HOST_SPEC_V2.md', 'PEERS.md'])
      assert.ok(existsSync(join(REPO, 'docs', 'protocol', f)), `docs/protocol/${f}`);
    const cases = digestCases();
    assert.equal(cases.length, 53);
    assert.deepEqual(
      cases,
      Array.from({ length: 53 }, (_, i) => `V2-${i + 1}`),
    );
  });

  it('docs/conformance.md lists every V2 case once; every test it names exists and names the case', () => {
    const rows = mapRows();
    assert.deepEqual([...rows.keys()], digestCases(), 'one row per case, in the digest’s order');
    for (const [id, row] of rows) {
      assert.ok(row.files.length > 0 || row.open, `${id} names no test and is not marked open`);
      for (const file of row.files) {
        assert.ok(existsSync(join(REPO, file)), `${id}: ${file} does not exist`);
        assert.match(read(file), new RegExp(`${id}(?!\\d)`), `${id}: ${file} does not name the case`);
      }
    }
  });

  it('every test file that names a V2 case is listed in that case’s row', () => {
    const rows = mapRows();
    for (const file of testFiles(join(REPO, 'test'))) {
      const rel = relative(REPO, file).split(sep).join('/');
      for (const m of new Set([...readFileSync(file, 'utf8').matchAll(/V2-(\d+)(?!\d)/g)].map((x) => `V2-${x[1]}`)))
        assert.ok(rows.get(m)?.files.includes(rel), `${rel} names ${m} but docs/conformance.md does not list it there`);
    }
  });
});
