// Per-folder enable/disable of installed plugins, remembered in workspace state (never in
// settings, so a repository cannot turn a runtime on or off for someone who clones it).
import * as vscode from 'vscode';

const KEY = 'reasonix.disabledByFolder';

export class Enablement {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the folder URI string whose set changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  private all(): Record<string, string[]> {
    return this.state.get<Record<string, string[]>>(KEY, {});
  }

  disabled(folder: vscode.Uri): string[] {
    return [...(this.all()[folder.toString()] ?? [])];
  }

  isDisabled(folder: vscode.Uri, pluginId: string): boolean {
    return this.disabled(folder).includes(pluginId);
  }

  async set(folder: vscode.Uri, pluginId: string, enabled: boolean): Promise<void> {
    const all = this.all();
    const key = folder.toString();
    const ids = new Set(all[key] ?? []);
    if (enabled) ids.delete(pluginId);
    else ids.add(pluginId);
    all[key] = [...ids].sort();
    if (all[key].length === 0) delete all[key];
    await this.state.update(KEY, all);
    this.changed.fire(key);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
