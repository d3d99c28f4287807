// Reasonix's install plan (`plugin install --dry-run`, and the same JSON after `--yes`) read into
// a typed value, field by field: anything that is not what 1.38.x prints is a clear `output`
// failure, never a guess. Strings arrive redacted (run.ts).
import { ReasonixError, type ReasonixStep } from './errors';

export interface PlanRuntime {
  command: string;
  args: string[];
  intercepts: string[];
  capabilities: string[];
  fullTrust: boolean;
}

export interface PlanAction {
  /** e.g. install_plugin_package */
  action: string;
  name: string;
  version: string;
  /** copy | link */
  mode: string;
  riskLevel: string;
  riskReasons: string[];
  /** full | partial | … (Reasonix's compatibility verdict). */
  compatibility: string;
  runtime?: PlanRuntime;
  source: string;
  target: string;
  /** planned | done | failed | … */
  status: string;
  /** Reasonix's reason when the action failed. */
  error?: string;
  next?: string;
}

export interface InstallPlan {
  planId: string;
  ok: boolean;
  applied: boolean;
  status: string;
  source: string;
  mode: string;
  scope: string;
  actions: PlanAction[];
  next?: string;
}

export interface InstallFlags {
  /** Link a local folder instead of copying it. */
  link?: boolean;
  /** Replace an installed package of the same name. */
  replace?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function runtimeOf(v: unknown): PlanRuntime | undefined {
  if (!isRecord(v)) return undefined;
  return {
    command: str(v.command),
    args: strs(v.args),
    intercepts: strs(v.intercepts),
    capabilities: strs(v.capabilities),
    fullTrust: v.fullTrust === true,
  };
}

/** The plan in Reasonix's JSON output (a removal's has no planId); throws ReasonixError(step, 'output') when there is none. */
export function parsePlan(stdout: string, step: ReasonixStep, needsPlanId = true): InstallPlan {
  const text = stdout.trim();
  // It prints one JSON object; anything before it (a warning line) is not part of the plan.
  const start = text.indexOf('{');
  let doc: unknown;
  try {
    doc = start >= 0 ? JSON.parse(text.slice(start)) : undefined;
  } catch {
    doc = undefined;
  }
  if (!isRecord(doc) || (needsPlanId && typeof doc.planId !== 'string') || !Array.isArray(doc.actions))
    throw new ReasonixError(
      step,
      'output',
      'Reasonix did not print an install plan (JSON with planId and actions)',
      text.slice(0, 2000),
    );
  const actions: PlanAction[] = doc.actions.filter(isRecord).map((a) => {
    const action: PlanAction = {
      action: str(a.action),
      name: str(a.name),
      version: str(a.version),
      mode: str(a.mode),
      riskLevel: str(a.riskLevel),
      riskReasons: strs(a.riskReasons),
      compatibility: str(a.compatibility),
      runtime: runtimeOf(a.runtime),
      source: str(a.source),
      target: str(a.target),
      status: str(a.status),
    };
    if (typeof a.error === 'string' && a.error) action.error = a.error;
    if (typeof a.next === 'string' && a.next) action.next = a.next;
    return action;
  });
  const plan: InstallPlan = {
    planId: str(doc.planId),
    ok: doc.ok === true,
    applied: doc.applied === true,
    status: str(doc.status),
    source: str(doc.source),
    mode: str(doc.mode),
    scope: str(doc.scope),
    actions,
  };
  if (typeof doc.next === 'string' && doc.next) plan.next = doc.next;
  return plan;
}

/** The packages a plan installs (its plugin actions' names). */
export function planNames(plan: InstallPlan): string[] {
  return plan.actions.map((a) => a.name).filter(Boolean);
}

/** Reasonix's own reasons for a failed plan: each failed action's error, else the plan's `next`. */
export function planFailure(plan: InstallPlan): string {
  const errors = plan.actions
    .filter((a) => a.error)
    .map((a) => (a.name ? `${a.name}: ${a.error}` : (a.error as string)));
  return errors.length ? errors.join('\n') : (plan.next ?? `status ${plan.status || 'unknown'}`);
}
