// VS Code wiring of the Surfaces webview: the sidebar view `reasonix.surfaces`, the optional
// editor panel (restored after a window reload by a serializer), and the command that opens it.
import * as vscode from 'vscode';
import type { PromptAnswer, PromptRequest } from '../../protocol';
import type { Drafts } from '../../webviewProtocol/messages';
import { lazyModule } from '../lazyModule';
import type { SurfacesHub, SurfaceSink, SurfacesViewFeed } from './hub';
import { newNonce, surfacesHtml } from './html';

/** The hub and its strings (dist/surfaces-hub.js), required when a view first needs them. */
const hubModule = lazyModule<typeof import('../../surfacesHub')>('surfaces-hub.js', 'surfacesHub');

export const SURFACES_VIEW_ID = 'reasonix.surfaces';
export const SURFACES_PANEL_TYPE = 'reasonix.surfacesPanel';
export const OPEN_PANEL_COMMAND = 'reasonix.openSurfacesPanel';
const DRAFTS_KEY = 'reasonix.surfaces.drafts';

export interface SurfacesController extends vscode.Disposable {
  /** The sidebar view or the panel is visible. */
  isVisible(): boolean;
  /** Multi-field prompts; abort → removes it and answers cancelled. */
  showPrompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer>;
  reveal(): Promise<void>;
  /** What the command `reasonix.openSurfacesPanel` runs (registered here). */
  openAsPanel(): void;
  /**
   * The user expanded a folder's group in the sidebar view or the panel: the session key of that
   * folder (as the surfaces carry it). A sign the folder is in use; fired once per expansion.
   */
  readonly onDidOpenFolderGroup: vscode.Event<string>;
  /**
   * Takes one message as a view would send it, through the same hub and checks (the in-host tests'
   * way to be the webview; the page's own sending is tested in Chromium).
   */
  receiveAsView(raw: unknown): Promise<void>;
}

export function createSurfaces(
  context: vscode.ExtensionContext,
  source: SurfacesViewFeed,
  sink: SurfaceSink,
  log: vscode.LogOutputChannel,
): SurfacesController {
  let made: SurfacesHub | undefined;
  const folderOpened = new vscode.EventEmitter<string>();
  const hub = () => (made ??= createHub(context, source, sink, log, (key) => folderOpened.fire(key)));
  const roots = ['dist', 'media'].map((dir) => vscode.Uri.joinPath(context.extensionUri, dir));
  let view: vscode.WebviewView | undefined;
  let panel: vscode.WebviewPanel | undefined;

  const adoptView = (v: vscode.WebviewView) => {
    view = v;
    connectWebview(context, hub(), roots, v);
    v.onDidDispose(() => {
      if (view === v) view = undefined;
    });
  };
  const adoptPanel = (p: vscode.WebviewPanel) => {
    panel = p;
    p.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'surfaces.svg');
    connectWebview(context, hub(), roots, p);
    p.onDidDispose(() => {
      if (panel === p) panel = undefined;
    });
  };

  const controller: SurfacesController = {
    isVisible: () => !!view?.visible || !!panel?.visible,
    showPrompt(req, signal) {
      // A prompt nobody sees would hang the sidecar until its timeout: bring a view forward.
      if (!controller.isVisible()) void controller.reveal();
      return hub().showPrompt(req, signal);
    },
    async reveal() {
      if (panel) panel.reveal(undefined, false);
      else await vscode.commands.executeCommand(`${SURFACES_VIEW_ID}.focus`);
    },
    openAsPanel() {
      if (panel) {
        panel.reveal();
        return;
      }
      adoptPanel(
        vscode.window.createWebviewPanel(SURFACES_PANEL_TYPE, 'Reasonix Surfaces', vscode.ViewColumn.Active, {
          enableScripts: true,
          enableCommandUris: false,
          localResourceRoots: roots,
        }),
      );
    },
    onDidOpenFolderGroup: folderOpened.event,
    async receiveAsView(raw) {
      const conn = hub().connect({ post: () => undefined });
      try {
        await conn.receive(raw);
      } finally {
        conn.dispose();
      }
    },
    dispose() {
      for (const d of registrations) d.dispose();
      panel?.dispose();
      made?.dispose();
      folderOpened.dispose();
    },
  };
  const registrations = registerWebviews(adoptView, adoptPanel, controller.openAsPanel);
  log.debug('surfaces: webview view and panel registered');
  return controller;
}

/** The hub with what it needs of VS Code: links, trust, drafts in workspace state, the display language. */
function createHub(
  context: vscode.ExtensionContext,
  source: SurfacesViewFeed,
  sink: SurfaceSink,
  log: vscode.LogOutputChannel,
  folderOpened: (sessionKey: string) => void,
): SurfacesHub {
  const { SurfacesHub, surfacesStrings } = hubModule();
  return new SurfacesHub({
    source,
    sink,
    log,
    openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))),
    manageTrust: () => void vscode.commands.executeCommand('workbench.trust.manage'),
    folderOpened,
    draftStore: {
      get: () => context.workspaceState.get<Drafts>(DRAFTS_KEY),
      set: (d) => void context.workspaceState.update(DRAFTS_KEY, Object.keys(d).length ? d : undefined),
    },
    strings: surfacesStrings,
  });
}

/** The sidebar view's provider, the panel's serializer (a reload restores it) and the open command. */
function registerWebviews(
  adoptView: (v: vscode.WebviewView) => void,
  adoptPanel: (p: vscode.WebviewPanel) => void,
  openAsPanel: () => void,
): vscode.Disposable[] {
  return [
    vscode.window.registerWebviewViewProvider(
      SURFACES_VIEW_ID,
      { resolveWebviewView: adoptView },
      // Typed values live in webview state and the extension, so the view need not stay alive hidden.
      { webviewOptions: { retainContextWhenHidden: false } },
    ),
    vscode.window.registerWebviewPanelSerializer(SURFACES_PANEL_TYPE, {
      deserializeWebviewPanel: async (p) => adoptPanel(p),
    }),
    vscode.commands.registerCommand(OPEN_PANEL_COMMAND, openAsPanel),
  ];
}

/** Points a webview at our bundle and connects it to the hub; a fresh nonce every time HTML is set. */
function connectWebview(
  context: vscode.ExtensionContext,
  hub: SurfacesHub,
  roots: vscode.Uri[],
  host: vscode.WebviewView | vscode.WebviewPanel,
): void {
  const webview = host.webview;
  webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: roots };
  const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, ...p)).toString();
  const conn = hub.connect({ post: (m) => void webview.postMessage(m) });
  const sub = webview.onDidReceiveMessage((raw: unknown) => void conn.receive(raw));
  webview.html = surfacesHtml({
    cspSource: webview.cspSource,
    nonce: newNonce(),
    scriptUri: uri('dist', 'webview.js'),
    styleUris: [uri('dist', 'codicon.css'), uri('media', 'webview.css')],
    title: vscode.l10n.t('Reasonix Surfaces'),
    lang: vscode.env.language,
    rootLabel: vscode.l10n.t('Reasonix surfaces'),
  });
  host.onDidDispose(() => {
    sub.dispose();
    conn.dispose();
  });
}
