// The authoring aids once loaded (dist/authoring.js, while a development folder is linked): the
// manifest diagnostics, created on the first save of a manifest, and restart on change.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MANIFEST_FILE } from '../../host/plugins';
import { DevRestart } from './devRestart';
import { ManifestDiagnostics } from './manifestDiagnostics';
import { TraceRegistry } from './traceView';
import { call, fire, type CallArgs, type FireArgs } from './tryIt';
import { ExtensionDebugger, type DebugArgs } from './debugExtension';
import { newExtension, type NewExtensionArgs } from './newExtension';
import { ViewPreviews, type PreviewArgs } from './viewPreview';
import type { TraceTarget } from './traceView';
import type { AuthoringDeps } from './register';

export class AuthoringAids implements vscode.Disposable {
  diagnostics: ManifestDiagnostics | undefined;
  private dev: DevRestart | undefined;
  private readonly saves: vscode.Disposable;
  /** Show Protocol Trace / Copy Protocol Trace as NDJSON over the linked folders' sidecars. */
  readonly traces: TraceRegistry;
  /** Preview View…, created on first use. */
  private previewsMade: ViewPreviews | undefined;
  /** Debug Extension…, created on first use. */
  private debuggerMade: ExtensionDebugger | undefined;

  constructor(private readonly deps: AuthoringDeps) {
    this.traces = new TraceRegistry(deps.taps);
    this.saves = vscode.workspace.onDidSaveTextDocument((doc) => {
      if (path.basename(doc.uri.fsPath) === MANIFEST_FILE) this.saved(doc);
    });
    this.sync();
  }

  /** A reasonix-plugin.json was saved. */
  saved(doc: vscode.TextDocument): void {
    this.diagnostics ??= new ManifestDiagnostics(this.deps.linked, this.deps.launch, this.deps.log);
    void this.diagnostics.refresh(doc);
  }

  /** Linked folders changed: watch them (DevRestart follows the list itself once created). */
  sync(): void {
    this.traces.sync(this.deps.linked.list());
    if (this.dev || !this.deps.linked.list().length) return;
    this.dev = new DevRestart({
      ...this.deps,
      reload: () => this.deps.sessions.reload(),
      enabled: () => vscode.workspace.getConfiguration('reasonix').get('restartOnChange', true),
    });
  }

  /** The extension's folder: the templates and the webview bundle (tests run from the repository). */
  private get extensionPath(): string {
    return this.deps.extensionPath ?? path.resolve(path.dirname(this.deps.launch.cli), '..');
  }

  get previews(): ViewPreviews {
    return (this.previewsMade ??= new ViewPreviews(this.extensionPath));
  }

  get debugger(): ExtensionDebugger {
    return (this.debuggerMade ??= new ExtensionDebugger(this.deps.sessions, this.deps.debugs ?? new Map(), (root) =>
      this.deps.linked.list().includes(root),
    ));
  }

  /** The authoring commands (AUTHORING_COMMANDS, registered at activation by register.ts). */
  run(command: string, arg?: unknown): Promise<unknown> {
    const s = this.deps.sessions;
    switch (command) {
      case 'reasonix.previewView':
        return this.previews.show(arg as PreviewArgs | undefined);
      case 'reasonix.newExtension':
        return newExtension(
          {
            linked: this.deps.linked,
            templates: path.join(this.extensionPath, 'templates', 'scaffold'),
            cli: this.deps.launch.cli,
            reload: () => s.reload(),
          },
          arg as NewExtensionArgs | undefined,
        );
      case 'reasonix.debugExtension':
        return this.debugger.run(arg as DebugArgs | undefined);
      case 'reasonix.showProtocolTrace':
        return this.traces.show(arg as TraceTarget | undefined);
      case 'reasonix.copyProtocolTrace':
        return this.traces.copy(arg as TraceTarget | undefined);
      case 'reasonix.fireHookPoint':
        return fire(s, arg as FireArgs | undefined);
      default:
        return call(s, arg as CallArgs | undefined);
    }
  }

  note(root: string): string | undefined {
    return this.dev?.note(root);
  }

  dispose(): void {
    this.saves.dispose();
    this.traces.dispose();
    this.diagnostics?.dispose();
    this.dev?.dispose();
    this.previewsMade?.dispose();
    this.debuggerMade?.dispose();
  }
}
