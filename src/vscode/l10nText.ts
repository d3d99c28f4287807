// The translator the VS Code face's pure modules take (displayStates, accessibleNames): the shape of
// `vscode.l10n`, so callers in VS Code pass `vscode.l10n` and Node tests run on the English default.
// Calls are written `l10n.t('literal', …)` so @vscode/l10n-dev extracts them (scripts/l10n.mjs).
import { formatText } from '../webviewProtocol/strings';

export interface L10n {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** English as written in the source, `{0}`… filled: what VS Code shows without a translation. */
export const english: L10n = { t: (message, ...args) => formatText(message, ...args.map(String)) };
