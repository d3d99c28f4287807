// UI actions a plugin declared in its handshake (HOST_SPEC §7.4): ids must match ^[a-z0-9-]+$;
// one invalid id drops the plugin's whole set (the plugin keeps running); duplicates keep the
// first; labels are redacted. Public name: `/<pluginId>:<actionId>`.
import type { UIActionDecl } from '../../protocol';
import { redact } from '../redact';

export const ACTION_ID = /^[a-z0-9-]+$/;

export interface DeclaredAction {
  actionId: string;
  /** Redacted; the action id when the plugin gave none. */
  label: string;
}

export interface ActionSet {
  actions: DeclaredAction[];
  warnings: string[];
}

export function actionName(pluginId: string, actionId: string): string {
  return `/${pluginId}:${actionId}`;
}

/** Parses `/<pluginId>:<actionId>` (the leading slash is optional). */
export function parseActionName(name: string): { pluginId: string; actionId: string } | undefined {
  const m = /^\/?([^:/\s]+):([^:\s]+)$/.exec(name.trim());
  return m ? { pluginId: m[1], actionId: m[2] } : undefined;
}

export function declareActions(pluginId: string, decls: readonly UIActionDecl[]): ActionSet {
  const bad = decls.find((d) => typeof d?.actionId !== 'string' || !ACTION_ID.test(d.actionId));
  if (bad) {
    return {
      actions: [],
      warnings: [
        `plugin ${pluginId}: action id ${JSON.stringify(redact(String(bad?.actionId)))} does not match ^[a-z0-9-]+$; none of its actions are offered`,
      ],
    };
  }
  const seen = new Set<string>();
  const actions: DeclaredAction[] = [];
  const warnings: string[] = [];
  for (const d of decls) {
    if (seen.has(d.actionId)) {
      warnings.push(`plugin ${pluginId}: duplicate action ${d.actionId} ignored`);
      continue;
    }
    seen.add(d.actionId);
    const label = typeof d.label === 'string' && d.label.trim() ? redact(d.label) : d.actionId;
    actions.push({ actionId: d.actionId, label });
  }
  return { actions, warnings };
}
