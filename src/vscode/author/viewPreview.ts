// Preview View… (issue 42): a v2 view payload from a JSON file, drawn by the Surfaces app (the
// sidebar's renderer, dist/webview.js, under the same CSP) in an editor panel, through the same hub
// that feeds the sidebar (one surface, from the file). The payload goes through the host's own
// view decoder (src/host/authoring previewView): a refusal is shown in the panel as a card with the
// decoder's sentence and in the Problems panel on the member it names. Saving the file draws it
// again. Part of dist/authoring.js.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { previewView } from '../../host/authoring';
import { Emitter } from '../../host/emitter';
import { surfaceKey, type Surface, type SurfaceChange } from '../../protocol';
import type { HostToView } from '../../webviewProtocol/messages';
import { newNonce, surfacesHtml } from '../surfaces/html';
import { SurfacesHub, type SurfacesViewFeed } from '../surfaces/hub';
import { surfacesStrings } from '../surfaces/viewStrings';

export const VIEW_PREVIEW_PANEL = 'reasonix.viewPreview';

export interface PreviewArgs {
  file: string;
}

/** One open preview (tests read what it shows and what it posted to the webview). */
export interface ViewPreviewHandle extends vscode.Disposable {
  readonly file: string;
  readonly panel: vscode.WebviewPanel;
  /** The surface drawn now: the view, or the card naming why it is not one. */
  current(): Surface;
  /** Every message posted to the webview (a snapshot only once the Surfaces app said `ready`). */
  readonly posted: HostToView[];
}

/** The preview's one-surface feed for the hub. */
class PreviewFeed implements SurfacesViewFeed {
  surface: Surface | undefined;
  readonly changes = new Emitter<SurfaceChange>();
  snapshot = (): Surface[] => (this.surface ? [this.surface] : []);
  onDidChange = this.changes.event;
  byKey = (key: string) => (this.surface && surfaceKey(this.surface) === key ? this.surface : undefined);
  emptyState = () => null;
  onDidChangeEmptyState = () => ({ dispose: () => undefined });
}

export class ViewPreviews implements vscode.Disposable {
  private readonly open = new Map<string, ViewPreviewHandle>();
  readonly diagnostics = vscode.languages.createDiagnosticCollection('reasonix-view-preview');
  private readonly saves: vscode.Disposable;

  constructor(private readonly extensionPath: string) {
    this.saves = vscode.workspace.onDidSaveTextDocument((doc) => {
      const p = this.open.get(doc.uri.fsPath);
      if (p) (p as PreviewImpl).render(doc.getText());
    });
  }

  /** Preview View…: `file`, else the active JSON editor's, else one picked. */
  async show(arg?: PreviewArgs): Promise<ViewPreviewHandle | undefined> {
    let file = arg?.file;
    const active = vscode.window.activeTextEditor?.document;
    if (!file && active?.languageId === 'json' && active.uri.scheme === 'file') file = active.uri.fsPath;
    if (!file) {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { JSON: ['json'] },
        openLabel: vscode.l10n.t('Preview'),
        title: vscode.l10n.t('A view payload to preview (JSON)'),
      });
      file = picked?.[0]?.fsPath;
      if (!file) return undefined;
    }
    const existing = this.open.get(file);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file)));
    } catch (err) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Cannot preview {0}: {1}. Pick a JSON file that holds a view payload.', file, String(err)),
      );
      return undefined;
    }
    const preview = new PreviewImpl(file, this.extensionPath, this.diagnostics, () => this.open.delete(file));
    this.open.set(file, preview);
    preview.render(text);
    return preview;
  }

  dispose(): void {
    this.saves.dispose();
    for (const p of [...this.open.values()]) p.dispose();
    this.diagnostics.dispose();
  }
}

class PreviewImpl implements ViewPreviewHandle {
  readonly panel: vscode.WebviewPanel;
  readonly posted: HostToView[] = [];
  private readonly feed = new PreviewFeed();
  private readonly hub: SurfacesHub;
  private revision = 0;

  constructor(
    readonly file: string,
    extensionPath: string,
    private readonly diagnostics: vscode.DiagnosticCollection,
    private readonly closed: () => void,
  ) {
    const root = vscode.Uri.file(extensionPath);
    const roots = ['dist', 'media'].map((d) => vscode.Uri.joinPath(root, d));
    this.panel = vscode.window.createWebviewPanel(
      VIEW_PREVIEW_PANEL,
      vscode.l10n.t('Preview: {0}', path.basename(file)),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: roots },
    );
    const webview = this.panel.webview;
    const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(root, ...p)).toString();
    this.hub = new SurfacesHub({
      source: this.feed,
      sink: {
        runAction: async () => ({ accepted: false, message: vscode.l10n.t('A preview: no extension receives this.') }),
        submitForm: async () => ({ accepted: false, message: vscode.l10n.t('A preview: no extension receives this.') }),
      },
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))),
      manageTrust: () => undefined,
      strings: surfacesStrings,
    });
    const conn = this.hub.connect({
      post: (m) => {
        this.posted.push(m);
        void webview.postMessage(m);
      },
    });
    const sub = webview.onDidReceiveMessage((raw: unknown) => void conn.receive(raw));
    webview.html = surfacesHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: uri('dist', 'webview.js'),
      styleUris: [uri('dist', 'codicon.css'), uri('media', 'webview.css')],
      title: vscode.l10n.t('Preview: {0}', path.basename(file)),
      lang: vscode.env.language,
      rootLabel: vscode.l10n.t('Reasonix surfaces'),
    });
    this.panel.onDidDispose(() => {
      sub.dispose();
      conn.dispose();
      this.hub.dispose();
      this.diagnostics.delete(vscode.Uri.file(file));
      this.closed();
    });
  }

  current(): Surface {
    return this.feed.surface!;
  }

  /** Decodes the file's text and draws the view, or the card saying why it is not one. */
  render(text: string): void {
    const r = previewView(text);
    const uri = vscode.Uri.file(this.file);
    const name = path.basename(this.file);
    const base = {
      sessionKey: 'preview',
      folderName: path.basename(path.dirname(this.file)),
      pluginId: name,
      generation: 0,
      revision: ++this.revision,
      firstRevision: 1,
      updatedAt: Date.now(),
      stale: false,
    };
    let next: Surface;
    if (r.ok) {
      this.diagnostics.delete(uri);
      next = { ...base, surfaceId: r.surfaceId ?? 'preview', kind: 'view', payload: r.payload };
    } else {
      const lines = text.slice(0, r.finding.offset).split('\n');
      const where = `${name}:${lines.length}:${lines[lines.length - 1].length + 1}`;
      const range = new vscode.Range(
        positionAt(text, r.finding.offset),
        positionAt(text, r.finding.offset + r.finding.length),
      );
      const d = new vscode.Diagnostic(range, r.finding.message, vscode.DiagnosticSeverity.Error);
      d.source = vscode.l10n.t('Reasonix view preview');
      this.diagnostics.set(uri, [d]);
      next = {
        ...base,
        surfaceId: 'preview',
        kind: 'card',
        payload: {
          title: vscode.l10n.t('Not a view the host would draw'),
          text: vscode.l10n.t('{0}: {1}. Correct it and save: the preview draws it again.', where, r.finding.message),
        },
      };
    }
    const before = this.feed.surface;
    this.feed.surface = next;
    if (before && surfaceKey(before) !== surfaceKey(next))
      this.feed.changes.fire({ type: 'remove', key: surfaceKey(before) });
    this.feed.changes.fire({ type: 'upsert', surface: next });
  }

  dispose(): void {
    this.panel.dispose();
  }
}

function positionAt(text: string, offset: number): vscode.Position {
  const lines = text.slice(0, offset).split('\n');
  return new vscode.Position(lines.length - 1, lines[lines.length - 1].length);
}
