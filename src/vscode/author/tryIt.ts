// Try it without an agent (issue 42): Fire Hook Point… dispatches one hook point exactly as the
// host does (the `reasonix-host fire` command's power in the palette), and Call Tool… calls one tool
// of a running extension through the interceptor chain with its arguments asked from the tool's
// input schema, one InputBox or QuickPick a property. Each shows its outcome as a JSON document.
// Both take their answers as arguments too (tests, key bindings). Part of dist/authoring.js; the
// commands are registered at activation (register.ts) and run here through AuthoringAids.run.
import * as vscode from 'vscode';
import { formSteps, readAnswer, type FormStep } from '../../host/authoring';
import { redactDeep } from '../../host/redact';
import type { HookOutcome, ToolCallOutcome, ToolInfo } from '../../host/session';
import { INTERCEPT_EVENTS } from '../../protocol';
import type { FolderSession, SessionManager } from '../sessions';

export interface FireArgs {
  folder?: string;
  point: string;
  payload: unknown;
}

export interface CallArgs {
  folder?: string;
  pluginId: string;
  name: string;
  arguments: unknown;
}

/** Remembered per hook point for this window: the payload typed last. */
const lastPayloads = new Map<string, string>();

export async function pickSession(sessions: SessionManager, key?: string): Promise<FolderSession | undefined> {
  const all = sessions.sessions();
  if (key) return all.find((s) => s.key === key || s.folder.uri.fsPath === key);
  if (all.length <= 1) {
    if (!all.length)
      void vscode.window.showWarningMessage(
        vscode.l10n.t('No Reasonix session is running: open a trusted folder with Reasonix extensions installed.'),
      );
    return all[0];
  }
  const picked = await vscode.window.showQuickPick(
    all.map((s) => ({ label: s.folder.name, s })),
    { placeHolder: vscode.l10n.t('In which folder?') },
  );
  return picked?.s;
}

async function show(value: unknown): Promise<void> {
  // Sidecar-sourced text: the one redaction before it is shown.
  const content = JSON.stringify(redactDeep(value), null, 2);
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content });
  await vscode.window.showTextDocument(doc, { preview: true });
}

export async function fire(sessions: SessionManager, a?: FireArgs): Promise<HookOutcome | undefined> {
  const s = await pickSession(sessions, a?.folder);
  if (!s) return undefined;
  let point = a?.point;
  let payload = a?.payload;
  if (!a) {
    const picked = await vscode.window.showQuickPick(
      INTERCEPT_EVENTS.map((p) => {
        const members = s.engine.interceptorsAt(p).map((m) => m.pluginId);
        return { label: p, description: members.length ? members.join(', ') : undefined };
      }),
      { placeHolder: vscode.l10n.t('Fire which hook point? (the extensions listening are shown beside it)') },
    );
    if (!picked) return undefined;
    point = picked.label;
    const text = await vscode.window.showInputBox({
      prompt: vscode.l10n.t('The {0} payload as JSON', point),
      value: lastPayloads.get(point) ?? '{}',
      validateInput: (t) => {
        try {
          JSON.parse(t);
          return undefined;
        } catch (err) {
          return vscode.l10n.t('Not JSON: {0}', (err as Error).message);
        }
      },
    });
    if (text === undefined) return undefined;
    lastPayloads.set(point, text);
    payload = JSON.parse(text);
  }
  try {
    const outcome = await s.engine.dispatch(point!, payload);
    await show({ point, ...outcome });
    return outcome;
  } catch (err) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'Firing {0} in {1} failed: {2}. Correct the payload and fire it again.',
        point!,
        s.folder.name,
        (err as Error).message,
      ),
    );
    return undefined;
  }
}

async function ask(step: FormStep, tool: string): Promise<{ value: unknown } | { skip: true } | undefined> {
  const title = vscode.l10n.t('{0}: {1}{2}', tool, step.name, step.required ? '' : vscode.l10n.t(' (optional)'));
  if (step.kind === 'boolean' || step.kind === 'enum') {
    const options = step.kind === 'boolean' ? ['true', 'false'] : step.options!;
    const items = [...options, ...(step.required ? [] : [''])].map((o) => ({
      label: o || vscode.l10n.t('(leave out)'),
      value: o,
    }));
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: step.description });
    if (!picked) return undefined;
    const r = readAnswer(step, picked.value);
    return 'error' in r ? undefined : r;
  }
  const text = await vscode.window.showInputBox({
    title,
    prompt: step.description,
    value: step.initial,
    validateInput: (t) => {
      const r = readAnswer(step, t);
      return 'error' in r ? r.error : undefined;
    },
  });
  if (text === undefined) return undefined;
  const r = readAnswer(step, text);
  return 'error' in r ? undefined : r;
}

export async function call(sessions: SessionManager, a?: CallArgs): Promise<ToolCallOutcome | undefined> {
  const s = await pickSession(sessions, a?.folder);
  if (!s) return undefined;
  let tool: ToolInfo | undefined;
  let args = a?.arguments;
  if (a) tool = s.engine.tools().find((t) => t.pluginId === a.pluginId && t.name === a.name);
  else {
    const tools = s.engine.tools();
    if (!tools.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'No running extension of {0} serves a tool (tools are protocol v2: runtime.tools).',
          s.folder.name,
        ),
      );
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      tools.map((t) => ({
        label: t.modelName,
        description: t.readOnly ? vscode.l10n.t('read-only') : undefined,
        detail: t.description,
        t,
      })),
      { placeHolder: vscode.l10n.t('Call which tool?') },
    );
    tool = picked?.t;
    if (!tool) return undefined;
    const values: Record<string, unknown> = {};
    for (const step of formSteps(tool.inputSchema)) {
      const r = await ask(step, tool.modelName);
      if (!r) return undefined;
      if ('value' in r) values[step.name] = r.value;
    }
    args = values;
  }
  if (!tool) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('{0} serves no tool {1} now: is it running?', a!.pluginId, a!.name),
    );
    return undefined;
  }
  try {
    const outcome = await s.engine.callTool({ pluginId: tool.pluginId, name: tool.name }, args);
    await show({ tool: tool.modelName, arguments: args, ...outcome });
    return outcome;
  } catch (err) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        "Calling {0} failed: {1}. See the Reasonix output for the extension's log.",
        tool.modelName,
        (err as Error).message,
      ),
    );
    return undefined;
  }
}
