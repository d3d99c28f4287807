// The view's own labels: English until the extension's snapshot brings them in VS Code's display
// language (src/webviewProtocol/strings.ts). Text from an extension never goes through here.
import { formatText, viewStringsFrom, type ViewStringKey, type ViewStrings } from '../src/webviewProtocol/strings';

let current: ViewStrings = viewStringsFrom(undefined);

/** Take the strings a snapshot carries (anything malformed falls back to English, key by key). */
export function useStrings(raw: unknown): void {
  current = viewStringsFrom(raw);
}

/** One label, `{0}`… filled with the arguments. */
export function text(key: ViewStringKey, ...args: readonly string[]): string {
  return formatText(current[key], ...args);
}
