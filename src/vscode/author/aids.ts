// The authoring aids once loaded (dist/authoring.js): the manifest diagnostics, created on the
// first save of a manifest, and restart on change, created while a development folder is linked.
import * as vscode from 'vscode';
import { DevRestart } from './devRestart';
import { ManifestDiagnostics } from './manifestDiagnostics';
import type { AuthoringDeps } from './register';

export class AuthoringAids implements vscode.Disposable {
  diagnostics: ManifestDiagnostics | undefined;
  private dev: DevRestart | undefined;

  constructor(private readonly deps: AuthoringDeps) {
    this.sync();
  }

  /** A reasonix-plugin.json was saved. */
  saved(doc: vscode.TextDocument): void {
    this.diagnostics ??= new ManifestDiagnostics(this.deps.linked, this.deps.launch, this.deps.log);
    void this.diagnostics.refresh(doc);
  }

  /** Linked folders changed: watch them (DevRestart follows the list itself once created). */
  sync(): void {
    if (this.dev || !this.deps.linked.list().length) return;
    this.dev = new DevRestart({
      ...this.deps,
      enabled: () => vscode.workspace.getConfiguration('reasonix').get('restartOnChange', true),
    });
  }

  note(root: string): string | undefined {
    return this.dev?.note(root);
  }

  dispose(): void {
    this.diagnostics?.dispose();
    this.dev?.dispose();
  }
}
