// The plugin verbs of the user's Reasonix (`reasonix plugin …`), one method each. We never edit
// Reasonix's files: every change is Reasonix's own, and we read back what it says and what it
// wrote. 1.38.x has no way to apply a plan by its id from the command line (the planId is checked
// only by its agent tool), so install() re-plans right before applying, applies with the same
// source and flags, and verifies that the applied plan's id is the one the user agreed to.
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ReasonixError, type ReasonixStep } from './errors';
import { parsePlan, planFailure, planNames, type InstallFlags, type InstallPlan } from './plan';
import { runReasonix, type RunResult } from './run';

export interface ReasonixCliOptions {
  /** The binary (locateReasonix). */
  bin: string;
  /** The Reasonix home it must write (the one this host reads), passed as REASONIX_HOME. */
  home: string;
  /** Where commands that take no local source run (a workspace folder, or the user's home). */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Per command (default run.ts's 60 s). */
  timeoutMs?: number;
}

/** One line of `reasonix plugin list`: name, state (enabled, disabled, disabled_incompatible…), version, root. */
export interface ListedPackage {
  name: string;
  state: string;
  version: string;
  root: string;
}

/** `plugin list` prints tab-separated lines, or "no plugins installed". */
export function parseList(stdout: string): ListedPackage[] {
  return stdout
    .split(/\r?\n/)
    .map((l) => l.split('\t'))
    .filter((f) => f.length >= 3 && f[0])
    .map(([name, state, version, ...root]) => ({ name, state, version, root: root.join('\t') }));
}

export class ReasonixCli {
  constructor(private readonly o: ReasonixCliOptions) {}

  private env(): NodeJS.ProcessEnv {
    return { ...(this.o.env ?? process.env), REASONIX_HOME: this.o.home, NO_COLOR: '1' };
  }

  /** A local folder source runs in that folder (Reasonix links only what is inside its cwd or home). */
  private cwdFor(source: string): string {
    if (path.isAbsolute(source) && existsSync(source) && statSync(source).isDirectory()) return source;
    return this.o.cwd;
  }

  private run(args: string[], step: ReasonixStep, cwd = this.o.cwd): Promise<RunResult> {
    return runReasonix(this.o.bin, args, step, { cwd, env: this.env(), timeoutMs: this.o.timeoutMs });
  }

  /** Throws the step's `exit` error with Reasonix's own words when it exited non-zero. */
  private async text(args: string[], step: ReasonixStep): Promise<string> {
    const r = await this.run(args, step);
    if (r.code !== 0)
      throw new ReasonixError(
        step,
        'exit',
        `reasonix plugin ${step} exited with code ${r.code}`,
        (r.stderr || r.stdout.trim()).slice(0, 4000),
        r.code,
      );
    return r.stdout.trimEnd();
  }

  private installArgs(source: string, flags: InstallFlags): string[] {
    const args = ['plugin', 'install', source];
    if (flags.link) args.push('--link');
    if (flags.replace) args.push('--replace');
    return args;
  }

  /** The plan (`--dry-run`): nothing is written. A refusal is a `refused` error with Reasonix's reason. */
  async plan(source: string, flags: InstallFlags = {}): Promise<InstallPlan> {
    const r = await this.run([...this.installArgs(source, flags), '--dry-run'], 'plan', this.cwdFor(source));
    if (r.code !== 0 && !r.stdout.trim())
      throw new ReasonixError('plan', 'refused', `Reasonix refused to plan the install of ${source}`, r.stderr, r.code);
    const plan = parsePlan(r.stdout, 'plan');
    if (!plan.ok || r.code !== 0)
      throw new ReasonixError(
        'plan',
        'refused',
        `Reasonix refused to plan the install of ${source}`,
        planFailure(plan),
        r.code,
      );
    return plan;
  }

  /**
   * Applies `agreed` (a plan from plan() with the same source and flags): plans again and stops if
   * anything changed since it was shown (step `plan`, kind `mismatch`), applies with `--yes`,
   * then checks that Reasonix applied that very plan and lists every package it installs.
   */
  async install(source: string, flags: InstallFlags, agreed: InstallPlan): Promise<InstallPlan> {
    const again = await this.plan(source, flags);
    if (again.planId !== agreed.planId)
      throw new ReasonixError(
        'plan',
        'mismatch',
        `the plan for ${source} changed since it was shown (${agreed.planId} → ${again.planId}); nothing was installed`,
      );
    const r = await this.run([...this.installArgs(source, flags), '--yes'], 'install', this.cwdFor(source));
    if (r.code !== 0 && !r.stdout.trim())
      throw new ReasonixError(
        'install',
        'exit',
        `reasonix plugin install exited with code ${r.code}`,
        r.stderr,
        r.code,
      );
    const applied = parsePlan(r.stdout, 'install');
    if (!applied.ok || r.code !== 0 || applied.actions.some((a) => a.status !== 'done'))
      throw new ReasonixError('install', 'refused', `Reasonix did not install ${source}`, planFailure(applied), r.code);
    const listed = new Set((await this.list()).map((p) => p.name));
    const missing = planNames(agreed).filter((n) => !listed.has(n));
    if (applied.planId !== agreed.planId || missing.length)
      throw new ReasonixError(
        'verify',
        'mismatch',
        applied.planId !== agreed.planId
          ? `Reasonix applied a different plan (${applied.planId}) from the one agreed (${agreed.planId}); check and remove what it installed`
          : `Reasonix reported the install done but does not list ${missing.join(', ')}`,
      );
    return applied;
  }

  async list(): Promise<ListedPackage[]> {
    return parseList(await this.text(['plugin', 'list'], 'list'));
  }

  /** Enables or disables a package in Reasonix (all its sessions); returns what Reasonix printed. */
  setEnabled(name: string, enabled: boolean): Promise<string> {
    return enabled
      ? this.text(['plugin', 'enable', name], 'enable')
      : this.text(['plugin', 'disable', name], 'disable');
  }

  async remove(name: string): Promise<InstallPlan> {
    const r = await this.run(['plugin', 'remove', name, '--yes'], 'remove');
    if (r.code !== 0 && !r.stdout.trim())
      throw new ReasonixError('remove', 'exit', `reasonix plugin remove exited with code ${r.code}`, r.stderr, r.code);
    const done = parsePlan(r.stdout, 'remove', false);
    if (!done.ok || r.code !== 0)
      throw new ReasonixError('remove', 'refused', `Reasonix did not remove ${name}`, planFailure(done), r.code);
    return done;
  }

  show(name: string): Promise<string> {
    return this.text(['plugin', 'show', name], 'show');
  }

  doctor(name: string): Promise<string> {
    return this.text(['plugin', 'doctor', name], 'doctor');
  }

  /** `plugin migrate <name> --to-v2`: Reasonix rewrites the manifest (keeping a .bak) or says why not. */
  migrate(name: string): Promise<string> {
    return this.text(['plugin', 'migrate', name, '--to-v2'], 'migrate');
  }
}
