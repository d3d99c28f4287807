// Show Details: `reasonix plugin show` and `plugin doctor` output as a read-only text document.
import * as vscode from 'vscode';

export const DETAILS_SCHEME = 'reasonix-details';

export class DetailsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Stores the text for `name` and returns its document's URI (an open one is refreshed). */
  set(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${name} (Reasonix).txt` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}
