// The Surfaces tables (src/webviewProtocol/strings.ts) in VS Code's display language. The English
// values are the keys of l10n/bundle.l10n.json; vscode.l10n.t leaves `{0}` for the view to fill.
import * as vscode from 'vscode';
import { HUB_MESSAGES, VIEW_STRINGS, type HubMessages, type ViewStrings } from '../../webviewProtocol/strings';

function translated<T extends Record<string, string>>(table: T): T {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, vscode.l10n.t(v)])) as T;
}

let cached: { view: ViewStrings; hub: HubMessages } | undefined;

/** Translated once per extension host: the display language only changes with a restart. */
export function surfacesStrings(): { view: ViewStrings; hub: HubMessages } {
  cached ??= { view: translated(VIEW_STRINGS), hub: translated(HUB_MESSAGES) };
  return cached;
}
