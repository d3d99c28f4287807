// New Reasonix Extension… (issue 42): the scaffold written from templates/scaffold, run for real.
// Each generated extension (Node, and Python with the standard library) passes
// `reasonix-host check`, publishes its card and serves its tool under `reasonix-host run`/`tool`,
// and passes its own test (which runs check and the tool itself). A folder that is not empty is
// refused before anything is written.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { scaffoldNameFor, ScaffoldError, writeScaffold, type ScaffoldLanguage } from '../../../src/host/authoring';
import { CLI } from '../cli/support';
import { realReasonixBinary, scratchReasonix } from '../../support/reasonix';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const TEMPLATES = path.join(REPO, 'templates', 'scaffold');

const FILES: Record<ScaffoldLanguage, string[]> = {
  node: [
    '.vscode/launch.json',
    'README.md',
    'package.json',
    'reasonix-plugin.json',
    'sidecar.js',
    'test/check.test.js',
  ],
  python: ['.vscode/launch.json', 'README.md', 'reasonix-plugin.json', 'sidecar.py', 'tests/test_check.py'],
};

const OWN_TEST: Record<ScaffoldLanguage, [string, string[]]> = {
  node: [process.execPath, ['--test', 'test/']],
  python: ['python3', ['-m', 'unittest', 'discover', '-s', 'tests']],
};

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('authoring: New Reasonix Extension… (the scaffold)', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rx-scaffold-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const language of ['node', 'python'] as const) {
    it(`${language}: the generated v2 extension passes check, publishes its card, serves its tool and passes its own test`, () => {
      const target = path.join(dir, 'new', 'hello-ext');
      const written = writeScaffold({ templates: TEMPLATES, language, target, name: 'hello-ext', reasonixHost: CLI });
      assert.deepEqual([...written].sort(), FILES[language]);
      const sidecar = path.join(target, language === 'node' ? 'sidecar.js' : 'sidecar.py');
      assert.ok(statSync(sidecar).mode & 0o100, 'the sidecar is executable');
      const text = FILES[language].map((f) => readFileSync(path.join(target, f), 'utf8')).join('\n');
      assert.doesNotMatch(text, /\{\{\w+\}\}/, 'every placeholder is filled');
      const launch = JSON.parse(readFileSync(path.join(target, '.vscode', 'launch.json'), 'utf8'));
      assert.equal(launch.configurations[0].env.REASONIX_HOST, CLI);
      const manifest = JSON.parse(readFileSync(path.join(target, 'reasonix-plugin.json'), 'utf8'));
      assert.equal(manifest.apiVersion, 'reasonix.io/plugin/v2');
      assert.equal(manifest.name, 'hello-ext');

      const check = cli('check', target, '--json');
      const report = JSON.parse(check.stdout);
      assert.equal(report.ok, true, `check: ${check.stdout}${check.stderr}`);
      assert.equal(check.status, 0);
      assert.deepEqual(report.initialize.tools, ['greet']);
      assert.deepEqual(report.violations, []);
      assert.deepEqual(report.warnings, []);

      const run = cli('run', target, '--json', '--for', '1', '--workspace', dir);
      assert.equal(run.status, 0, run.stderr);
      const card = run.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; kind?: string; payload?: { title?: string } })
        .find((e) => e.type === 'surface' && e.kind === 'card');
      assert.equal(card?.payload?.title, 'hello-ext', `the card is published: ${run.stdout}`);

      const tool = cli('tool', 'hello-ext', 'greet', '--args', '{"name":"Ada"}', '--plugin', target);
      assert.equal(tool.status, 0, tool.stdout + tool.stderr);
      assert.match(tool.stdout, /Hello, Ada!/);

      const [command, args] = OWN_TEST[language];
      const own = spawnSync(command, args, {
        cwd: target,
        encoding: 'utf8',
        timeout: 90_000,
        env: { ...process.env, REASONIX_HOST: CLI },
      });
      assert.equal(own.error, undefined, `${command} could not run: ${own.error?.message}`);
      assert.equal(own.status, 0, `its own test failed:\n${own.stdout}${own.stderr}`);
      // Both of its tests ran (check and the tool), none skipped.
      assert.match(own.stdout + own.stderr, language === 'node' ? /# pass 2\b/ : /Ran 2 tests/);
    });
  }

  for (const language of ['node', 'python'] as const)
    it(`${language}: the real Reasonix 1.38.11 refuses runtime.tools at install, as the generated README says; without the tool its plugin doctor says ok`, () => {
      const r = scratchReasonix();
      try {
        const reasonix = (args: string[]) =>
          spawnSync(realReasonixBinary(), args, { cwd: r.workspace, env: r.env, encoding: 'utf8', timeout: 30_000 });
        const withTool = path.join(r.workspace, 'with-tool');
        writeScaffold({ templates: TEMPLATES, language, target: withTool, name: 'with-tool', reasonixHost: CLI });
        const refused = reasonix(['plugin', 'install', withTool, '--link', '--yes']);
        assert.notEqual(refused.status, 0, `1.38.11 took runtime.tools: ${refused.stdout}`);
        assert.match(refused.stderr + refused.stdout, /tools/);
        assert.match(
          readFileSync(path.join(withTool, 'README.md'), 'utf8'),
          /Reasonix 1\.38\.11.*refuses `runtime\.tools`/s,
        );

        const cardOnly = path.join(r.workspace, 'card-only');
        writeScaffold({ templates: TEMPLATES, language, target: cardOnly, name: 'card-only', reasonixHost: CLI });
        // What the README says to do for 1.38.11: no `tools` member, no "tools" capability.
        const file = path.join(cardOnly, 'reasonix-plugin.json');
        const manifest = JSON.parse(readFileSync(file, 'utf8'));
        delete manifest.runtime.tools;
        manifest.runtime.capabilities = manifest.runtime.capabilities.filter((c: string) => c !== 'tools');
        writeFileSync(file, JSON.stringify(manifest, null, 2));
        const install = reasonix(['plugin', 'install', cardOnly, '--link', '--yes']);
        assert.equal(install.status, 0, install.stderr + install.stdout);
        const doctor = reasonix(['plugin', 'doctor', 'card-only']);
        assert.equal(doctor.status, 0, doctor.stderr + doctor.stdout);
        assert.match(doctor.stdout, /^ok: /m);
        // And the host still runs it (the card; no tool served).
        const check = cli('check', cardOnly, '--json');
        assert.equal(JSON.parse(check.stdout).ok, true, check.stdout);
      } finally {
        r.remove();
      }
    });

  it('refuses a folder that is not empty, names what is in it, and writes nothing', () => {
    const target = path.join(dir, 'busy');
    mkdirSync(target);
    writeFileSync(path.join(target, 'notes.txt'), 'mine');
    assert.throws(
      () => writeScaffold({ templates: TEMPLATES, language: 'node', target, name: 'busy', reasonixHost: CLI }),
      (err: unknown) =>
        err instanceof ScaffoldError &&
        /busy is not empty \(notes\.txt\): pick an empty or new folder, nothing was written$/.test(err.message),
    );
    assert.equal(readFileSync(path.join(target, 'notes.txt'), 'utf8'), 'mine');
    assert.equal(existsSync(path.join(target, 'reasonix-plugin.json')), false);
  });

  it('refuses a name a tool could not carry, and offers one made from the folder', () => {
    assert.throws(
      () =>
        writeScaffold({
          templates: TEMPLATES,
          language: 'python',
          target: path.join(dir, 'x'),
          name: 'My Ext',
          reasonixHost: CLI,
        }),
      /"My Ext" cannot name an extension: use lower-case letters, digits and dashes/,
    );
    assert.equal(existsSync(path.join(dir, 'x')), false);
    assert.equal(scaffoldNameFor('/home/a/My Cool_Ext!'), 'my-cool-ext');
    assert.equal(scaffoldNameFor('/home/a/___'), 'my-extension');
  });
});
