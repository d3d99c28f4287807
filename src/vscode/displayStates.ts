// One vocabulary for what the user sees about each plugin (tree rows, status bar, tooltips),
// derived from engine states so every view agrees.
import { capabilityKey, type CapabilityDecl, type PluginSpec } from '../host/plugins';
import type { EngineState } from '../host/session';

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

export function summarize(rows: readonly PluginRow[]): Summary {
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
      .map((s) => `${counts[s]} ${s}`)
      .join(', ') || 'no extensions';
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
function list(xs: readonly string[]): string {
  return xs.length ? xs.join(', ') : 'none';
}

/**
 * The FULL TRUST block (HOST_SPEC §10): what a plugin's runtime may do, shown wherever a user
 * decides about or inspects a plugin. Lines of plain text; callers render them.
 */
export function fullTrustLines(
  plugin: Pick<PluginSpec, 'id' | 'root' | 'runtime'> &
    Partial<Pick<PluginSpec, 'protocol' | 'requires' | 'provides'>> & { source?: PluginSpec['source'] },
): string[] {
  const r = plugin.runtime;
  return [
    'FULL TRUST: runs unsandboxed with your user account and environment.',
    `Command: ${r.command}${r.args.length ? ' ' + r.args.join(' ') : ''}`,
    `Folder: ${plugin.root}`,
    `Intercepts: ${list(r.intercepts)}`,
    `Replaces slots: ${list(r.replaces)}`,
    `Capabilities: ${list(r.capabilities)}`,
    `Required: ${r.required ? 'yes (a failure stops the whole runtime)' : 'no'}`,
    ...v2Lines(plugin),
  ];
}

/** Protocol v2's additions to the block: the tools an agent may call, and what it depends on. */
function v2Lines(plugin: Partial<Pick<PluginSpec, 'protocol' | 'requires' | 'provides' | 'runtime'>>): string[] {
  if (plugin.protocol !== 2) return [];
  const tools = plugin.runtime?.tools ?? [];
  const cap = (c: CapabilityDecl) => {
    const version = c.version ?? c.versionRange;
    return `${capabilityKey(c)}${version ? ` ${version}` : ''}${c.optional ? ' (optional)' : ''}`;
  };
  return [
    `Tools an agent may call: ${list(tools.map((t) => `${t.name}${t.readOnly ? ' (read-only)' : ''}`))}`,
    `Requires: ${list((plugin.requires ?? []).map(cap))}`,
    `Provides: ${list((plugin.provides ?? []).map(cap))}`,
  ];
}
