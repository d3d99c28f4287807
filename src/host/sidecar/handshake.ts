// The opening move (HOST_SPEC §2.2) and the checks on its answer (§2.3).
import {
  PROTOCOL_ID,
  PROTOCOL_MAJOR,
  type ErrorReason,
  type InitializeParams,
  type InitializeResult,
  type UIActionDecl,
} from '../../protocol';
import type { Logger } from '../log';
import type { PluginSpec } from '../plugins';
import { redact, redactDeep } from '../redact';

export type UiHost = 'desktop' | 'tui' | 'acp' | 'headless';
export interface SessionContextInput {
  sessionId: string;
  workspaceRoot: string;
  generation: number;
}

/** Exactly the five seed members; the manifest expectation comes from the installed runtime block. */
export function initializeParams(plugin: PluginSpec, session: SessionContextInput, uiHost: UiHost): InitializeParams {
  return {
    protocolVersion: PROTOCOL_MAJOR,
    protocolId: PROTOCOL_ID,
    manifest: {
      intercepts: [...plugin.runtime.intercepts],
      replaces: [...plugin.runtime.replaces],
      capabilities: [...plugin.runtime.capabilities],
    },
    session: { sessionId: session.sessionId, workspaceRoot: session.workspaceRoot, generation: session.generation },
    capabilities: { contentRefs: true, uiHost, protocolVersion: PROTOCOL_MAJOR },
  };
}

export interface HandshakeProblem {
  reason: ErrorReason;
  message: string;
}

/** Version and subset-of-manifest rules, in the reference order. Undefined when acceptable. */
export function checkInitializeResult(plugin: PluginSpec, result: InitializeResult): HandshakeProblem | undefined {
  // The schema only asks for non-empty strings; the reference also refuses blank ones (§2.3).
  for (const member of ['name', 'version'] as const) {
    if (!/\S/.test(result[member])) {
      return {
        reason: 'protocol_error',
        message: `invalid initialize result: ${member} "${redact(result[member])}" is blank`,
      };
    }
  }
  const pv = result.protocolVersion;
  if (!/^[+-]?[0-9]+$/.test(pv)) {
    return { reason: 'protocol_error', message: `protocolVersion "${redact(pv)}" is not a decimal integer` };
  }
  if (Number.parseInt(pv, 10) !== Number(PROTOCOL_MAJOR)) {
    return {
      reason: 'unsupported_version',
      message: `protocolVersion ${pv} is not supported (this host speaks ${PROTOCOL_MAJOR})`,
    };
  }
  const rt = plugin.runtime;
  const undeclared = (what: string, item: string, where: string): HandshakeProblem => ({
    reason: 'capability_not_declared',
    message: `${what} "${redact(item)}" is not declared in the manifest ${where}`,
  });
  for (const s of result.subscriptions ?? [])
    if (!rt.intercepts.includes(s)) return undeclared('subscription', s, 'runtime.intercepts');
  for (const r of result.replaces ?? [])
    if (!rt.replaces.includes(r)) return undeclared('replaced slot', r, 'runtime.replaces');
  if (result.providers?.length) {
    if (!rt.capabilities.includes('providers')) return undeclared('capability', 'providers', 'runtime.capabilities');
    const prefix = `plugin/${plugin.id}/`;
    for (const p of result.providers) {
      if (!p.ref.startsWith(prefix)) {
        return { reason: 'capability_not_declared', message: `provider ref "${redact(p.ref)}" is outside ${prefix}` };
      }
    }
  }
  if (result.uiActions?.length && !rt.capabilities.includes('ui'))
    return undeclared('capability', 'ui', 'runtime.capabilities');
  return undefined;
}

const ACTION_ID = /^[a-z0-9-]+$/;

/** Declared actions: one bad id drops the whole set (with a warning); duplicates keep the first. */
export function acceptedUiActions(result: InitializeResult, logger: Logger): UIActionDecl[] {
  const decls = result.uiActions ?? [];
  const bad = decls.find((d) => !ACTION_ID.test(d.actionId));
  if (bad) {
    logger.warn(`ignoring all UI actions: action id "${redact(bad.actionId)}" does not match ${ACTION_ID.source}`);
    return [];
  }
  const seen = new Set<string>();
  const out: UIActionDecl[] = [];
  for (const d of decls) {
    if (seen.has(d.actionId)) continue;
    seen.add(d.actionId);
    out.push(d.label === undefined ? { actionId: d.actionId } : { actionId: d.actionId, label: redact(d.label) });
  }
  return out;
}

/**
 * The initialize result as every face sees it: every sidecar-sourced string redacted once, here,
 * so `check`, `models`, the tree and the logs never print a label, name or display name in clear.
 * Identifiers the host matches on (protocolVersion, subscriptions, replaces, provider refs,
 * action ids) are kept verbatim, as HOST_SPEC §7 keeps form field keys.
 */
export function redactInitializeResult(result: InitializeResult): InitializeResult {
  const out = redactDeep(result);
  out.protocolVersion = result.protocolVersion;
  if (result.subscriptions) out.subscriptions = [...result.subscriptions];
  if (result.replaces) out.replaces = [...result.replaces];
  if (result.providers && out.providers)
    out.providers = out.providers.map((p, i) => ({ ...p, ref: result.providers![i].ref }));
  if (result.uiActions && out.uiActions)
    out.uiActions = out.uiActions.map((a, i) => ({ ...a, actionId: result.uiActions![i].actionId }));
  return out;
}
