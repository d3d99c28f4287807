// Public API of the Surfaces webview for src/vscode/extension.ts.
import type * as vscode from 'vscode';
import type { EmptyState } from '../../webviewProtocol/messages';
import type { SurfaceSink, SurfacesViewFeed } from './hub';
import { createSurfaces, type SurfacesController } from './register';

export type { SurfaceSink, SurfacesController, SurfacesViewFeed };

export type { EmptyState };
export { SURFACES_VIEW_ID, SURFACES_PANEL_TYPE, OPEN_PANEL_COMMAND } from './register';

export function registerSurfaces(
  context: vscode.ExtensionContext,
  source: SurfacesViewFeed,
  sink: SurfaceSink,
  log: vscode.LogOutputChannel,
): SurfacesController {
  const controller = createSurfaces(context, source, sink, log);
  context.subscriptions.push(controller);
  return controller;
}
