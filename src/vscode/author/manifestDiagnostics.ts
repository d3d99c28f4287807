// The manifest while typing (issue 42): on save of a linked development folder's
// reasonix-plugin.json, the manifest decoder's findings and then `reasonix-host check`'s (the
// sidecar started, handshaken and shut down in a process of its own) appear in the Problems panel
// on the member they are about, with a quick fix where the fix is known. The JSON schema itself
// (schemas/reasonix-plugin.schema.json) is contributed through `jsonValidation` in package.json.
// Part of dist/authoring.js: register.ts creates it on the first save and calls refresh() on each.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  checkFindings,
  manifestFindings,
  type CheckOutcome,
  type FindingFix,
  type ManifestFinding,
} from '../../host/authoring';
import { MANIFEST_FILE } from '../../host/plugins';
import type { LinkedFolders } from '../linking';
import type { ExtensionLog } from '../logging';

/** How the check runs: VS Code's runtime as Node with the shipped CLI (the extension host keeps no sidecar of it). */
export interface CheckLaunch {
  runtime: string;
  cli: string;
}

/** A check gets this long before it is abandoned (handshake 30 s plus a run and a shutdown). */
const CHECK_BUDGET_MS = 45_000;

export class ManifestDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('reasonix-plugin');
  /**
   * Each manifest's fixes beside the diagnostic they fix. The code-action context carries copies of
   * the diagnostics (from the markers), so a fix is found by the diagnostic's message and range.
   */
  private readonly fixes = new Map<string, { diagnostic: vscode.Diagnostic; fix: FindingFix }[]>();
  /** The latest save of each manifest; an older check's answer is dropped. */
  private readonly runs = new Map<string, number>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly linked: LinkedFolders,
    private readonly launch: CheckLaunch,
    private readonly log: ExtensionLog,
  ) {
    this.subs = [
      this.collection,
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.collection.delete(doc.uri);
        this.fixes.delete(doc.uri.toString());
      }),
      vscode.languages.registerCodeActionsProvider(
        { pattern: `**/${MANIFEST_FILE}` },
        { provideCodeActions: (doc, _range, context) => this.actions(doc, context) },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
    ];
  }

  /** The linked folder whose manifest `doc` is, or undefined. */
  private folderOf(doc: vscode.TextDocument): string | undefined {
    if (doc.uri.scheme !== 'file' || path.basename(doc.uri.fsPath) !== MANIFEST_FILE) return undefined;
    const dir = path.dirname(doc.uri.fsPath);
    return this.linked.list().find((f) => path.resolve(f) === path.resolve(dir));
  }

  /** Recomputes the findings of a saved manifest: the decoder's at once, then the check's when it can run. */
  async refresh(doc: vscode.TextDocument): Promise<void> {
    const folder = this.folderOf(doc);
    if (!folder) return;
    const key = doc.uri.toString();
    const run = (this.runs.get(key) ?? 0) + 1;
    this.runs.set(key, run);
    const text = doc.getText();
    const found = manifestFindings(text, doc.uri.fsPath, folder);
    this.show(doc, found);
    if (found.some((f) => f.severity === 'error')) return;
    const report = await this.check(folder);
    if (this.runs.get(key) !== run || doc.isClosed || doc.getText() !== text) return;
    if (report) this.show(doc, [...found, ...checkFindings(text, report)]);
  }

  private check(folder: string): Promise<CheckOutcome | undefined> {
    return new Promise((resolve) => {
      execFile(
        this.launch.runtime,
        [this.launch.cli, 'check', folder, '--json'],
        {
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
          timeout: CHECK_BUDGET_MS,
          maxBuffer: 4 * 1024 * 1024,
          windowsHide: true,
        },
        (err, stdout) => {
          try {
            resolve(JSON.parse(stdout) as CheckOutcome);
          } catch {
            this.log.warn(
              `checking ${folder} after its manifest was saved failed (${err?.message ?? 'no report'}); run \`reasonix-host check ${folder}\` in a terminal to see why`,
            );
            resolve(undefined);
          }
        },
      );
    });
  }

  private show(doc: vscode.TextDocument, found: ManifestFinding[]): void {
    const fixes: { diagnostic: vscode.Diagnostic; fix: FindingFix }[] = [];
    this.fixes.set(doc.uri.toString(), fixes);
    this.collection.set(
      doc.uri,
      found.map((f) => {
        const range = new vscode.Range(doc.positionAt(f.offset), doc.positionAt(f.offset + f.length));
        const d = new vscode.Diagnostic(
          range,
          f.message,
          f.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        d.source = f.source === 'check' ? 'reasonix-host check' : 'Reasonix';
        if (f.fix) fixes.push({ diagnostic: d, fix: f.fix });
        return d;
      }),
    );
  }

  private actions(doc: vscode.TextDocument, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    const known = this.fixes.get(doc.uri.toString()) ?? [];
    for (const d of context.diagnostics) {
      const fix = known.find((k) => k.diagnostic.message === d.message && k.diagnostic.range.isEqual(d.range))?.fix;
      if (!fix) continue;
      const action = new vscode.CodeAction(fixTitle(fix), vscode.CodeActionKind.QuickFix);
      action.diagnostics = [d];
      action.isPreferred = true;
      action.edit = new vscode.WorkspaceEdit();
      for (const e of fix.edits)
        action.edit.replace(
          doc.uri,
          new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)),
          e.text,
        );
      out.push(action);
    }
    return out;
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}

function fixTitle(fix: FindingFix): string {
  switch (fix.kind) {
    case 'remove':
      return vscode.l10n.t('Remove the unknown member "{0}"', fix.args[0]);
    case 'root':
      return vscode.l10n.t('Start the command from the plugin folder: "{0}"', fix.args[0]);
    case 'add':
      return vscode.l10n.t('Declare "{0}" in {1}', fix.args[0], fix.args[1]);
  }
}
