// One vocabulary for what the user sees about each plugin (tree rows, status bar, tooltips),
// derived from engine states so every view agrees.
import { capabilityKey, loadsCode, type CapabilityDecl, type PluginSpec } from '../host/plugins';
import { redact } from '../host/redact';
import { featuresOf } from '../protocol';
import type { EngineState } from '../host/session';
import { english, type L10n } from './l10nText';

/** What the Extensions view shows for a plugin. */
/** `inactive`: not started because a capability it requires is missing (HOST_SPEC_V2 §11). */
export type DisplayState = 'starting' | 'running' | 'crashed' | 'stopped' | 'failed' | 'disabled' | 'inactive';

export function toDisplayState(s: EngineState): DisplayState {
  switch (s) {
    case 'starting':
      return 'starting';
    case 'running':
      return 'running';
    case 'crashed':
      return 'crashed';
    case 'failed':
      return 'failed';
    case 'disabled':
      return 'disabled';
    case 'inactive':
      return 'inactive';
    default:
      return 'stopped';
  }
}

/** Higher is worse; the status bar shows the worst state across every session. */
const SEVERITY: Record<DisplayState, number> = {
  disabled: 0,
  stopped: 1,
  running: 2,
  starting: 3,
  inactive: 4,
  crashed: 5,
  failed: 6,
};

export interface PluginRow {
  sessionKey: string;
  folderName: string;
  pluginId: string;
  state: DisplayState;
  pid?: number;
  /** Epoch ms when the handshake completed. */
  readyAt?: number;
  /** Why it is failed/crashed/disabled, redacted. */
  detail?: string;
}

export type OverallState = 'none' | DisplayState;

export interface Summary {
  worst: OverallState;
  counts: Record<DisplayState, number>;
  /** e.g. "2 running, 1 crashed". */
  text: string;
}

/** A state as a word in the display language ("running", "运行中"). */
export function stateWord(state: DisplayState, l10n: L10n = english): string {
  switch (state) {
    case 'starting':
      return l10n.t('starting');
    case 'running':
      return l10n.t('running');
    case 'crashed':
      return l10n.t('crashed');
    case 'stopped':
      return l10n.t('stopped');
    case 'failed':
      return l10n.t('failed');
    case 'disabled':
      return l10n.t('disabled');
    case 'inactive':
      return l10n.t('inactive');
  }
}

export function summarize(rows: readonly PluginRow[], l10n: L10n = english): Summary {
  const counts: Record<DisplayState, number> = {
    starting: 0,
    running: 0,
    crashed: 0,
    stopped: 0,
    failed: 0,
    disabled: 0,
    inactive: 0,
  };
  let worst: OverallState = 'none';
  for (const r of rows) {
    counts[r.state]++;
    if (worst === 'none' || SEVERITY[r.state] > SEVERITY[worst]) worst = r.state;
  }
  const order: DisplayState[] = ['failed', 'crashed', 'inactive', 'starting', 'running', 'stopped', 'disabled'];
  const text =
    order
      .filter((s) => counts[s] > 0)
      .map((s) => l10n.t('{0} {1}', counts[s], stateWord(s, l10n)))
      .join(l10n.t(', ')) || l10n.t('no extensions');
  return { worst, counts, text };
}

/** "42s", "3m 05s", "2h 10m", "3d 4h". */
export function formatUptime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** "a, b" or "none": one way to list in the FULL TRUST block. */
function list(xs: readonly string[], l10n: L10n): string {
  return xs.length ? xs.join(', ') : l10n.t('none');
}

/**
 * The FULL TRUST block (HOST_SPEC §10): what a plugin's runtime may do, shown wherever a user
 * decides about or inspects a plugin. Lines of plain text; callers render them.
 */
export function fullTrustLines(
  plugin: Pick<PluginSpec, 'id' | 'root' | 'runtime'> &
    Partial<Pick<PluginSpec, 'protocol' | 'requires' | 'provides'>> & { source?: PluginSpec['source'] },
  l10n: L10n = english,
): string[] {
  const r = plugin.runtime;
  return [
    l10n.t('FULL TRUST: runs unsandboxed with your user account and environment.'),
    l10n.t('Command: {0}', `${r.command}${r.args.length ? ' ' + r.args.join(' ') : ''}`),
    l10n.t('Folder: {0}', plugin.root),
    l10n.t('Intercepts: {0}', list(r.intercepts, l10n)),
    l10n.t('Replaces slots: {0}', list(r.replaces, l10n)),
    l10n.t('Capabilities: {0}', list(r.capabilities, l10n)),
    r.required ? l10n.t('Required: yes (a failure stops the whole runtime)') : l10n.t('Required: no'),
    l10n.t('Environment: {0}', list(envEntries(r.env, l10n), l10n)),
    ...v2Lines(plugin, l10n),
  ];
}

/** `NAME=value` per variable the manifest sets (values redacted), flagging those that can load code. */
function envEntries(env: Record<string, string> | undefined, l10n: L10n): string[] {
  return Object.entries(env ?? {}).map(([k, v]) => {
    const entry = `${k}=${redact(v)}`;
    return loadsCode(k) ? l10n.t('{0} (loads code)', entry) : entry;
  });
}

/** What the plugin's contract adds to the block: the tools an agent may call, and what it depends on. */
function v2Lines(
  plugin: Partial<Pick<PluginSpec, 'protocol' | 'requires' | 'provides' | 'runtime'>>,
  l10n: L10n,
): string[] {
  const features = featuresOf(plugin.protocol ?? 1);
  const tools = plugin.runtime?.tools ?? [];
  const cap = (c: CapabilityDecl) => {
    const version = c.version ?? c.versionRange;
    const name = `${capabilityKey(c)}${version ? ` ${version}` : ''}`;
    return c.optional ? l10n.t('{0} (optional)', name) : name;
  };
  return [
    ...(features.tools
      ? [
          l10n.t(
            'Tools an agent may call: {0}',
            list(
              tools.map((t) => (t.readOnly ? l10n.t('{0} (read-only)', t.name) : t.name)),
              l10n,
            ),
          ),
        ]
      : []),
    ...(features.dependencies
      ? [
          l10n.t('Requires: {0}', list((plugin.requires ?? []).map(cap), l10n)),
          l10n.t('Provides: {0}', list((plugin.provides ?? []).map(cap), l10n)),
        ]
      : []),
  ];
}
