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

/** Every .ts/.js/.mjs/.md file under `dir` (no node_modules, no generated output). */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return ['node_modules', 'out', 'dist', 'generated'].includes(e.name) ? [] : sourceFiles(join(dir, e.name));
    return /\.(ts|js|mjs|md)$/.test(e.name) ? [join(dir, e.name)] : [];
  });
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

  it('every HOST_SPEC / HOST_SPEC_V2 § citation in the code and docs names a section the digest has', () => {
    // Headings (`## 11.`, `### 2.4`) and the numbered items of a section (§11.6 = item 6 of §11).
    const sections = (file: string) => {
      const ids = new Set<string>();
      let section = '';
      for (const line of read(`docs/protocol/${file}`).split('\n')) {
        const heading = /^#{2,3} (\d+(?:\.\d+)*)[. ]/.exec(line);
        if (heading) ids.add((section = heading[1]));
        const item = /^(\d+)\. /.exec(line);
        if (item && section && !section.includes('.')) ids.add(`${section}.${item[1]}`);
      }
      return ids;
    };
    const known = { HOST_SPEC: sections('HOST_SPEC.md'), HOST_SPEC_V2: sections('HOST_SPEC_V2.md') };
    const files = ['src', 'test', 'bench', 'scripts', 'docs', 'examples'].flatMap((d) => sourceFiles(join(REPO, d)));
    files.push(join(REPO, 'README.md'));
    let cited = 0;
    const broken: string[] = [];
    for (const file of files) {
      if (file.includes(`${sep}protocol${sep}HOST_SPEC`) || file.includes(`${sep}fixtures${sep}`)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(HOST_SPEC(?:_V2)?) ?§ ?(\d+(?:\.\d+)*)/g)) {
        cited++;
        const spec = m[1] as keyof typeof known;
        if (!known[spec].has(m[2])) broken.push(`${relative(REPO, file)}: ${m[0]}`);
      }
    }
    assert.ok(cited > 100, `found ${cited} citations`);
    assert.deepEqual(broken, [], 'citations of sections the digests do not have');
  });
});
