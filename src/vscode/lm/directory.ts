// Which models the running Reasonix extensions of this window offer, across every folder
// session (multi-root: one per folder, each ref listed once), and where a request for one goes.
// It only reads the sessions (nothing runs in an untrusted workspace, so it is empty there). It
// fires `onDidChange` when the set of running provider extensions changes — start, stop, crash,
// restart, reload — so the model list stays live, and keeps the last list for the Extensions view.
import * as vscode from 'vscode';
import type { ProviderDescriptor } from '../../protocol';
import type { SessionManager, FolderSession } from '../sessions';

export interface ModelEntry {
  ref: string;
  pluginId: string;
  /** The extension's installed version. */
  version: string;
  descriptor: ProviderDescriptor;
  /** Sessions serving this ref, in window folder order. */
  sessionKeys: string[];
  folderNames: string[];
  /** Running extensions (of the first serving session) that intercept `provider.response`. */
  responseInterceptors: string[];
}

const POINT = 'provider.response';

export class ModelDirectory implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  private signature = '';
  private last = new Map<string, string[]>();

  constructor(
    private readonly sessions: SessionManager,
    private readonly trusted: () => boolean,
  ) {
    this.sub = sessions.onDidChange(() => this.check());
  }

  /** Running plugins that can serve models or shape responses: what the model list depends on. */
  private computeSignature(): string {
    const parts: string[] = [];
    for (const s of this.sessions.sessions()) {
      for (const p of s.engine.plugins()) {
        if (p.state !== 'running' || !p.spec) continue;
        const caps = p.spec.runtime;
        if (!caps.capabilities.includes('providers') && !caps.intercepts.includes(POINT)) continue;
        parts.push(`${s.key}#${p.pluginId}#${p.pid ?? ''}#${s.engine.generation}`);
      }
    }
    return parts.join('|');
  }

  private check(): void {
    const sig = this.computeSignature();
    if (sig === this.signature) return;
    this.signature = sig;
    // Refresh the remembered list (for the Extensions view), then tell listeners.
    void this.list().finally(() => this.changed.fire());
  }

  /** The models to offer now: empty in an untrusted workspace. */
  async list(): Promise<ModelEntry[]> {
    if (!this.trusted()) {
      this.last = new Map();
      return [];
    }
    const byRef = new Map<string, ModelEntry>();
    const perPlugin = new Map<string, string[]>();
    const ordered = this.sessions.sessions();
    const catalogs = await Promise.all(ordered.map((s) => modelsOf(s)));
    ordered.forEach((s, i) => {
      const plugins = s.engine.plugins();
      const interceptors = plugins
        .filter((p) => p.state === 'running' && p.spec?.runtime.intercepts.includes(POINT))
        .map((p) => p.pluginId);
      for (const m of catalogs[i]) {
        const key = `${s.key}#${m.pluginId}`;
        perPlugin.set(key, [...(perPlugin.get(key) ?? []), m.descriptor.displayName ?? m.ref]);
        const have = byRef.get(m.ref);
        if (have) {
          have.sessionKeys.push(s.key);
          have.folderNames.push(s.folder.name);
          continue;
        }
        const version = plugins.find((p) => p.pluginId === m.pluginId)?.spec?.version ?? '0.0.0';
        byRef.set(m.ref, {
          ref: m.ref,
          pluginId: m.pluginId,
          version,
          descriptor: m.descriptor,
          sessionKeys: [s.key],
          folderNames: [s.folder.name],
          responseInterceptors: interceptors,
        });
      }
    });
    this.last = perPlugin;
    return [...byRef.values()];
  }

  /** Model names of one plugin in one session, as last listed (for the Extensions view). */
  modelsOf(sessionKey: string, pluginId: string): readonly string[] {
    return this.last.get(`${sessionKey}#${pluginId}`) ?? [];
  }

  /**
   * The session to run a request in: the active editor's folder when it serves the ref, else the
   * first folder that does. Undefined when no running extension serves it any more.
   */
  async route(ref: string): Promise<{ session: FolderSession; entry: ModelEntry } | undefined> {
    const entry = (await this.list()).find((e) => e.ref === ref);
    if (!entry) return undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    const activeKey = active ? vscode.workspace.getWorkspaceFolder(active)?.uri.toString() : undefined;
    const key = activeKey && entry.sessionKeys.includes(activeKey) ? activeKey : entry.sessionKeys[0];
    const session = this.sessions.get(key);
    if (!session) return undefined;
    const plugins = session.engine.plugins();
    const responseInterceptors = plugins
      .filter((p) => p.state === 'running' && p.spec?.runtime.intercepts.includes(POINT))
      .map((p) => p.pluginId);
    return { session, entry: { ...entry, responseInterceptors } };
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

async function modelsOf(
  s: FolderSession,
): Promise<{ ref: string; pluginId: string; descriptor: ProviderDescriptor }[]> {
  try {
    const models = await s.engine.models();
    return models.map((m) => ({
      ref: m.ref,
      pluginId: m.pluginId,
      descriptor: m.descriptor ?? { ref: m.ref, displayName: m.label },
    }));
  } catch {
    return []; // a session stopping meanwhile offers nothing this time; the next change lists again
  }
}
