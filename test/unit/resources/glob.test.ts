import * as assert from 'node:assert/strict';
import { compileExcludes, globToRegExp } from '../../../src/host/resources';

describe('resources: exclusion globs', () => {
  const cases: [string, string, boolean][] = [
    ['**/node_modules', 'node_modules', true],
    ['**/node_modules', 'a/b/node_modules', true],
    ['*.log', 'x.log', true],
    ['*.log', 'dir/x.log', false],
    ['**/*.log', 'dir/x.log', true],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['{out,dist}/**', 'dist/a/b.js', true],
    ['[ab].txt', 'a.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['a.b', 'axb', false],
  ];
  for (const [glob, p, expected] of cases) {
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${p}`, () => {
      assert.equal(globToRegExp(glob).test(p), expected);
    });
  }

  it('excludes everything below a matching folder', () => {
    const ex = compileExcludes(['**/.cache', 'out']);
    assert.equal(ex('.cache/x/y'), true);
    assert.equal(ex('pkg/.cache/z'), true);
    assert.equal(ex('out/main.js'), true);
    assert.equal(ex('src/out.ts'), false);
    assert.equal(compileExcludes([])('anything'), false);
  });
});
