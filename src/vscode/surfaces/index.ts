// Public API of the Surfaces webview for src/vscode/extension.ts.
import type * as vscode from 'vscode';
import type { FormValues, Surface, SurfaceChange } from '../../protocol';
import type { EmptyState } from '../../webviewProtocol/messages';
import { createSurfaces, type SurfacesController } from './register';

export type { SurfacesController };

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
export function registerSurfaces(context: vscode.ExtensionContext, source: SurfaceSource, sink: SurfaceSink, log: vscode.LogOutputChannel): SurfacesController {
  const controller = createSurfaces(context, source, sink, log);
  context.subscriptions.push(controller);
  return controller;
}
