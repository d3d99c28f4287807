// Steps the two real-VS Code runners share: provisioning, compiling the TypeScript tests and
// harness, and loading the compiled harness (it lives in out/test/e2e/support).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ProvisionError, provision, repoRoot } from './provision.mjs';

/** Fails the run with one line. */
export function die(msg) {
  process.stderr.write(`${msg}\n`);
  process.exit(1);
}

export function provisionOrDie(options) {
  try {
    return provision(options);
  } catch (e) {
    if (e instanceof ProvisionError) die(`provision failed: ${e.message}`);
    throw e;
  }
}

/**
 * Compiles the project (tsc emits even when other files still have type errors; the typecheck
 * stage of `npm test` is what judges those), then checks the files we need were emitted.
 */
export function compile(required) {
  process.stderr.write('[compile] npx tsc -p .\n');
  const r = spawnSync('npx', ['tsc', '-p', '.'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.error) die(`compile failed: ${r.error.message}`);
  for (const f of required) if (!existsSync(f)) die(`compile failed: ${f} was not emitted (see tsc errors above)`);
}

export function loadHarness(name) {
  const file = join(repoRoot, 'out', 'test', 'e2e', 'support', `${name}.js`);
  if (!existsSync(file)) die(`missing ${file}: compile first (npx tsc -p .)`);
  return createRequire(import.meta.url)(file);
}

/** `--flag value` options; repeated flags collect into arrays when listed in `multi`. */
export function parseArgs(argv, { flags = [], multi = [], booleans = [] }) {
  const opts = {};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (booleans.includes(a)) opts[a.slice(2)] = true;
    else if (flags.includes(a) || multi.includes(a)) {
      const v = argv[++i];
      if (v === undefined) die(`${a} needs a value`);
      const k = a.slice(2);
      if (multi.includes(a)) (opts[k] ??= []).push(v);
      else opts[k] = v;
    } else rest.push(a);
  }
  return { opts, rest };
}

/**
 * A REASONIX_HOME plus workspace from the sample extensions, written by the examples' own
 * script (scripts/prepare-home.mjs <home> --workspace <dir>).
 */
export function prepareReasonixHome(home, workspace) {
  const script = join(repoRoot, 'scripts', 'prepare-home.mjs');
  if (!existsSync(script)) die(`cannot prepare REASONIX_HOME: ${script} is missing`);
  const r = spawnSync(process.execPath, [script, home, '--workspace', workspace], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) die(`cannot prepare REASONIX_HOME: scripts/prepare-home.mjs exited ${r.status ?? r.signal}`);
}

export { repoRoot };
