// Debug Extension… (issue 42): restarts a linked extension's sidecar under a debugger and attaches
// VS Code's. The debug start is the engine's (src/host/authoring debugPlan: Node --inspect-brk,
// Python debugpy, a Go binary under dlv); the sidecar factory takes it from `debugs` for the one
// start asked for here (a later start, a reload on change or a crash restart, is normal), which also
// lifts the handshake deadline while the debugger holds the sidecar at its first line. When the
// debug session ends the extension is restarted normally. Where a
// tool or a VS Code debugger extension is missing, the message names what to install where.
// Part of dist/authoring.js.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { debugPlan, findOnPath, freePort, waitForListener, type DebugRuntime } from '../../host/authoring';
import { resolveCommand, type DebugLaunch } from '../../host/sidecar';
import type { SessionManager } from '../sessions';
import { pickSession } from './tryIt';

export interface DebugArgs {
  folder?: string;
  pluginId: string;
}

/** Why it was not debugged (also shown to the user); nothing was restarted for a refusal before the start. */
export interface DebugRefused {
  refused: string;
}

export interface DebugStarted {
  runtime: DebugRuntime;
  /** What the sidecar was started as. */
  launch: DebugLaunch;
  port: number;
  configuration: vscode.DebugConfiguration;
}

/** The VS Code extension that debugs each runtime, and the attach configuration it takes. */
const DEBUGGERS: Record<
  DebugRuntime,
  {
    extension: string;
    name: string;
    config(host: string, port: number): { type: string; request: string; [member: string]: unknown };
  }
> = {
  node: {
    extension: 'ms-vscode.js-debug',
    name: 'JavaScript Debugger (ms-vscode.js-debug)',
    // continueOnAttach: the sidecar, held at its first line, runs on once breakpoints are set.
    config: (address, port) => ({ type: 'node', request: 'attach', address, port, continueOnAttach: true }),
  },
  python: {
    extension: 'ms-python.debugpy',
    name: 'Python Debugger (ms-python.debugpy)',
    config: (host, port) => ({ type: 'debugpy', request: 'attach', connect: { host, port }, justMyCode: false }),
  },
  go: {
    extension: 'golang.go',
    name: 'Go (golang.go)',
    config: (host, port) => ({ type: 'go', request: 'attach', mode: 'remote', host, port }),
  },
};

/** How long the sidecar gets to start listening for the debugger. */
const LISTEN_MS = 20_000;
const ROOT_KEY = 'reasonixExtensionRoot';

function probe(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) =>
    execFile(command, args, { timeout: 15_000, windowsHide: true }, (err) => resolve(!err)),
  );
}

export class ExtensionDebugger implements vscode.Disposable {
  /** Package root → the session and plugin being debugged. */
  private readonly active = new Map<string, { key: string; pluginId: string }>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly sessions: SessionManager,
    private readonly debugs: Map<string, DebugLaunch>,
    private readonly isLinked: (root: string) => boolean,
  ) {
    this.sub = vscode.debug.onDidTerminateDebugSession((s) => {
      const root = (s.configuration as Record<string, unknown>)[ROOT_KEY];
      if (typeof root === 'string') void this.end(root);
    });
  }

  /** Whether `root` is being debugged now (tests). */
  debugging(root: string): boolean {
    return this.active.has(root);
  }

  async run(arg?: DebugArgs): Promise<DebugStarted | DebugRefused | undefined> {
    const s = await pickSession(this.sessions, arg?.folder);
    if (!s) return undefined;
    const linked = s.engine.plugins().filter((p) => p.spec && this.isLinked(p.spec.root));
    let pluginId = arg?.pluginId;
    if (!pluginId) {
      if (!linked.length) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'No linked extension runs in {0}: Debug Extension… debugs a linked development folder. Link one with Link Extension Folder….',
            s.folder.name,
          ),
        );
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        linked.map((p) => ({ label: p.pluginId, description: p.spec!.root })),
        { placeHolder: vscode.l10n.t('Debug which linked extension?') },
      );
      pluginId = picked?.label;
      if (!pluginId) return undefined;
    }
    const status = linked.find((p) => p.pluginId === pluginId);
    const spec = status?.spec;
    if (!spec) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          '{0} is not a linked extension of {1}: only linked development folders are debugged.',
          pluginId,
          s.folder.name,
        ),
      );
      return undefined;
    }
    const fail = (why: string): DebugRefused => {
      const refused = vscode.l10n.t('Cannot debug {0}: {1}', spec.id, why);
      void vscode.window.showErrorMessage(refused);
      return { refused };
    };
    const cmd = resolveCommand(spec);
    if (!cmd.ok) return fail(cmd.message);
    const port = await freePort();
    const plan = debugPlan(cmd.command, spec.runtime.args, port, findOnPath('dlv'));
    if (!plan.ok) return fail(plan.message);
    if (plan.probe && !(await probe(plan.probe.command, plan.probe.args)))
      return fail(
        vscode.l10n.t(
          'its runtime lacks the debug server: install {0}, then run Debug Extension… again.',
          plan.install,
        ),
      );
    const dbg = DEBUGGERS[plan.runtime];
    if (!vscode.extensions.getExtension(dbg.extension))
      return fail(
        vscode.l10n.t(
          'VS Code has no debugger for it: install the {0} extension, then run Debug Extension… again.',
          dbg.name,
        ),
      );

    this.debugs.set(spec.root, plan.launch);
    this.active.set(spec.root, { key: s.key, pluginId: spec.id });
    // The restart settles only once the debugger lets the handshake through: not awaited here.
    let failed: Error | undefined;
    void this.sessions.restartPlugin(s.key, spec.id).catch((err: Error) => (failed = err));
    const listening = await waitForListener(port, LISTEN_MS, () => failed !== undefined);
    if (!listening) {
      await this.end(spec.root, false);
      return fail(
        failed
          ? failed.message
          : vscode.l10n.t(
              'it did not listen for the debugger on port {0} within {1} s.',
              String(port),
              String(LISTEN_MS / 1000),
            ),
      );
    }
    const configuration: vscode.DebugConfiguration = {
      name: vscode.l10n.t('Reasonix: {0}', spec.id),
      ...dbg.config(plan.attach.host, plan.attach.port),
      [ROOT_KEY]: spec.root,
    };
    const started = await vscode.debug.startDebugging(s.folder, configuration);
    if (!started) {
      await this.end(spec.root, false);
      return fail(vscode.l10n.t('VS Code did not start the {0} debug session.', dbg.name));
    }
    return { runtime: plan.runtime, launch: plan.launch, port, configuration };
  }

  /** Debugging of `root` ended: dropped, and restarted normally (a failure to start is shown unless `quiet`). */
  private async end(root: string, shown = true): Promise<void> {
    const was = this.active.get(root);
    this.debugs.delete(root);
    this.active.delete(root);
    if (!was) return;
    try {
      await this.sessions.restartPlugin(was.key, was.pluginId);
    } catch (err) {
      if (shown)
        void vscode.window.showErrorMessage(
          vscode.l10n.t(
            '{0} did not start again after debugging: {1}. See the Reasonix output, then restart it from the Extensions view.',
            was.pluginId,
            (err as Error).message,
          ),
        );
    }
  }

  dispose(): void {
    this.sub.dispose();
    for (const root of [...this.active.keys()]) this.debugs.delete(root);
    this.active.clear();
  }
}
