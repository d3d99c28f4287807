// Public API of the Surfaces webview for src/vscode/extension.ts.
import type * as vscode from 'vscode';
import type { FormValues, PromptAnswer, PromptRequest, Surface, SurfaceChange } from '../../host/ui/model';
import type { EmptyState } from '../../webviewProtocol/messages';
import { createSurfaces } from './register';

export type { EmptyState };
export { SURFACES_VIEW_ID, SURFACES_PANEL_TYPE, OPEN_PANEL_COMMAND } from './register';

export interface SurfaceSource {
  snapshot(): Surface[];
  onDidChange(listener: (change: SurfaceChange) => void): vscode.Disposable;
  emptyState(): EmptyState;
  onDidChangeEmptyState(listener: () => void): vscode.Disposable;
}
export interface SurfaceSink {
  runAction(origin: { sessionKey: string; pluginId: string }, actionId: string): Promise<{ accepted: boolean; message?: string }>;
  submitForm(origin: { sessionKey: string; pluginId: string }, surfaceId: string, values: FormValues): Promise<{ accepted: boolean; message?: string }>;
}
export interface SurfacesController extends vscode.Disposable {
  /** The sidebar view or the panel is visible. */
  isVisible(): boolean;
  /** Multi-field prompts; abort → removes it and answers cancelled. */
  showPrompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer>;
  reveal(): Promise<void>;
  /** What the command `reasonix.openSurfacesPanel` runs (registered here). */
  openAsPanel(): void;
}

export function registerSurfaces(context: vscode.ExtensionContext, source: SurfaceSource, sink: SurfaceSink, log: vscode.LogOutputChannel): SurfacesController {
  const controller = createSurfaces(context, source, sink, log);
  context.subscriptions.push(controller);
  return controller;
}
