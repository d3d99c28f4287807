// The words of extension management, vscode-free so Node tests read them: the install plan as a
// modal's text (every risk reason, the runtime's command, hook points, capabilities, the
// compatibility verdict), and a Reasonix failure as one message naming the step and what to do.
// Everything Reasonix printed arrives redacted (src/host/reasonix/run.ts).
import type { InstallPlan, ReasonixError, ReasonixStep } from '../../host/reasonix';
import { english, type L10n } from '../l10nText';

/** The modal's title: what will be installed. */
export function planTitle(plan: InstallPlan, l10n: L10n = english): string {
  const names = plan.actions.map((a) => (a.version ? `"${a.name}" ${a.version}` : `"${a.name}"`)).join(', ');
  return l10n.t('Install {0} with Reasonix?', names || plan.source);
}

/** The plan id as the modal shows it: its kind and first 16 hex digits (the full id is logged). */
export function shortPlanId(planId: string): string {
  const m = /^([a-z0-9-]+:)([0-9a-f]{16})[0-9a-f]+$/i.exec(planId);
  return m ? `${m[1]}${m[2]}…` : planId;
}

/**
 * The modal's detail, plain text, one block per action: what and where, then the risk with every
 * reason Reasonix gives, then the runtime (command, hook points, capabilities); then which
 * Reasonix made the plan and its id.
 */
export function planDetail(plan: InstallPlan, l10n: L10n = english, version?: string): string {
  const blocks = plan.actions.flatMap((a) => {
    const how = a.mode === 'link' ? l10n.t('linked from') : l10n.t('copied from');
    const what = [`${a.name}${a.version ? ` ${a.version}` : ''} — ${how} ${a.source || plan.source}`];
    if (a.target) what.push(l10n.t('Installs to: {0}', a.target));
    what.push(l10n.t('Compatibility: {0}', a.compatibility || l10n.t('not stated')));
    const risk = [l10n.t('Risk: {0}', a.riskLevel || l10n.t('not stated')), ...a.riskReasons.map((r) => `  • ${r}`)];
    const list = (v: string[]) => (v.length ? v.join(', ') : l10n.t('none'));
    const runtime = a.runtime
      ? [
          l10n.t('Runtime command: {0}', [a.runtime.command, ...a.runtime.args].join(' ')),
          l10n.t('Hook points: {0}', list(a.runtime.intercepts)),
          l10n.t('Capabilities: {0}', list(a.runtime.capabilities)),
        ]
      : [l10n.t('Runtime command: none (no runtime process)')];
    return [what.join('\n'), risk.join('\n'), runtime.join('\n')];
  });
  const id = shortPlanId(plan.planId);
  const by = [...(version ? [l10n.t('Planned by Reasonix {0}', version)] : []), l10n.t('Reasonix plan {0}', id)];
  return [...blocks, by.join('\n')].join('\n\n');
}

/** "planning the install", "enabling it in Reasonix"…: what was happening. */
export function stepText(step: ReasonixStep, l10n: L10n = english): string {
  switch (step) {
    case 'find':
      return l10n.t('finding Reasonix');
    case 'version':
      return l10n.t('asking Reasonix for its version');
    case 'plan':
      return l10n.t('planning the install');
    case 'install':
      return l10n.t('installing');
    case 'verify':
      return l10n.t('checking what was installed');
    case 'enable':
      return l10n.t('enabling it in Reasonix');
    case 'disable':
      return l10n.t('disabling it in Reasonix');
    case 'remove':
      return l10n.t('removing it');
    case 'show':
    case 'doctor':
      return l10n.t('reading its details');
    case 'migrate':
      return l10n.t('migrating it to v2');
    case 'list':
      return l10n.t('listing the installed extensions');
  }
}

/** What to do next, by how it failed. */
function nextStep(e: ReasonixError, l10n: L10n): string {
  switch (e.kind) {
    case 'missing':
      return l10n.t('Install Reasonix (npm install -g reasonix) or set reasonix.path to its executable.');
    case 'timeout':
      return l10n.t('Check that Reasonix answers in a terminal (reasonix plugin list), then try again.');
    case 'refused':
      return l10n.t('Fix what Reasonix names, then try again.');
    case 'mismatch':
      return l10n.t('Nothing was reported as installed; review the extensions in the view and try again.');
    default:
      return l10n.t('Run the same reasonix plugin command in a terminal for more; the Reasonix log has the details.');
  }
}

/** One message: who (Reasonix, and the extension or source), what was happening, why, what next. */
export function failureText(subject: string, e: ReasonixError, l10n: L10n = english): string {
  const said = e.said ? ` — ${e.said.replace(/\s+/g, ' ').trim()}` : '';
  return `${l10n.t('Reasonix failed while {0} ({1}): {2}', stepText(e.step, l10n), subject, e.message)}${said}. ${nextStep(e, l10n)}`;
}
