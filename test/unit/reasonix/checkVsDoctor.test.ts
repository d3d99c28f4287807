// `reasonix-host check` reports at least what the real Reasonix 1.38.11 reports for the same folder
// (issue 42 item 7): Reasonix's verdict is its install (which refuses a manifest it cannot read)
// followed by `plugin doctor`; ours is `check`. Where Reasonix finds a problem, check fails too;
// where check says more, the case says which (docs/authoring.md has the table). HOME and
// REASONIX_HOME are in a scratch folder; the folders are linked from inside its workspace.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CLI } from '../cli/support';
import { realReasonixBinary, scratchReasonix, type ScratchReasonix } from '../../support/reasonix';

interface Verdict {
  ok: boolean;
  said: string;
}

describe('reasonix-host check beside the real Reasonix 1.38.11 (install + plugin doctor)', function () {
  this.timeout(60_000);
  let s: ScratchReasonix;
  beforeEach(() => (s = scratchReasonix()));
  afterEach(() => s.remove());

  const reasonix = (args: string[]) =>
    spawnSync(realReasonixBinary(), args, { cwd: s.workspace, env: s.env, encoding: 'utf8', timeout: 30_000 });

  /** Reasonix's verdict: the linked install must be accepted, then `plugin doctor` must say ok. */
  const reasonixVerdict = (dir: string, name: string): Verdict => {
    const install = reasonix(['plugin', 'install', dir, '--link', '--yes']);
    if (install.status !== 0) return { ok: false, said: `install: ${install.stderr}${install.stdout}` };
    const doctor = reasonix(['plugin', 'doctor', name]);
    return {
      ok: doctor.status === 0 && /^ok: /m.test(doctor.stdout),
      said: `doctor: ${doctor.stdout}${doctor.stderr}`,
    };
  };

  const checkVerdict = (dir: string): Verdict => {
    const r = spawnSync(process.execPath, [CLI, 'check', dir, '--json'], { encoding: 'utf8', timeout: 30_000 });
    const report = JSON.parse(r.stdout) as { ok: boolean; message?: string; violations: { message: string }[] };
    return {
      ok: r.status === 0 && report.ok,
      said: [report.message, ...report.violations.map((v) => v.message)].join(' | '),
    };
  };

  /** The greeter fixture, renamed and changed by `edit` (the parsed manifest). */
  const folder = (name: string, edit: (m: Record<string, unknown>) => void = () => undefined) => {
    const dir = s.extension('greeter', name);
    const file = path.join(dir, 'reasonix-plugin.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    manifest.name = name;
    edit(manifest);
    writeFileSync(file, JSON.stringify(manifest, null, 2));
    return dir;
  };
  const runtime = (m: Record<string, unknown>) => m.runtime as Record<string, unknown>;

  const cases: { name: string; edit?: (m: Record<string, unknown>) => void; reasonixOk: boolean; checkOk: boolean }[] =
    [
      { name: 'good', reasonixOk: true, checkOk: true },
      { name: 'colour', edit: (m) => (m.colour = 'blue'), reasonixOk: false, checkOk: false },
      { name: 'restart', edit: (m) => (runtime(m).restart = 'always'), reasonixOk: false, checkOk: false },
      {
        name: 'missing-command',
        edit: (m) => (runtime(m).command = '${REASONIX_PLUGIN_ROOT}/bin/nope'),
        reasonixOk: false,
        checkOk: false,
      },
      // check says more: HOST_SPEC §10 asks for an absolute command after expansion; 1.38.11 resolves
      // a relative one against the package root.
      {
        name: 'relative-command',
        edit: (m) => (runtime(m).command = './bin/greeter'),
        reasonixOk: true,
        checkOk: false,
      },
    ];

  for (const c of cases) {
    it(`${c.name}: Reasonix ${c.reasonixOk ? 'accepts' : 'refuses'}, check ${c.checkOk ? 'conforms' : 'fails'}`, () => {
      const dir = folder(c.name, c.edit);
      const theirs = reasonixVerdict(dir, c.name);
      const ours = checkVerdict(dir);
      assert.equal(theirs.ok, c.reasonixOk, theirs.said);
      assert.equal(ours.ok, c.checkOk, ours.said);
      // The rule the cases instantiate: whatever Reasonix finds, check finds.
      if (!theirs.ok) assert.equal(ours.ok, false, `Reasonix: ${theirs.said}; check: ${ours.said}`);
    });
  }
});
