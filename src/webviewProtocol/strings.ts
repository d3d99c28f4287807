// The English of every label the Surfaces webview draws itself, and of the hub's verdicts, written
// once here. The extension translates each value with vscode.l10n (the values are keys of
// l10n/bundle.l10n.json; scripts/l10n.mjs collects them between the `l10n-table` markers, one
// `key: '…',` per line) and sends the result in the snapshot, so the view follows VS Code's
// display language; a view given no strings draws these. `{0}` is filled by `formatText`.
// Text that comes from an extension never passes through here.

// l10n-table
export const VIEW_STRINGS = {
  info: 'Info',
  warning: 'Warning',
  error: 'Error',
  spokenWarning: 'Warning: {0}',
  spokenError: 'Error: {0}',
  statusLabel: 'Status: {0}',
  notificationLabel: 'Notification: {0}',
  running: 'Running {0}…',
  actionDone: '{0}: done',
  actionNotAccepted: '{0}: not accepted',
  ok: 'OK',
  meter: 'Meter',
  mark: 'mark',
  progressLabel: '{0} progress',
  itemOne: '{0} item',
  itemMany: '{0} items',
  staleTitle: 'The extension stopped; this is its last published state.',
  staleBadge: 'stopped',
  questions: 'Questions from extensions',
  folderLabel: 'Folder {0}',
  submit: 'Submit',
  cancel: 'Cancel',
  requiredOne: 'Fill in the required field: {0}',
  requiredMany: 'Fill in the required fields: {0}',
  answerSent: 'Answer sent',
  submitting: 'Submitting…',
  submittedWith: 'Submitted: {0}',
  submitted: 'Submitted',
  rejectedWith: 'Rejected: {0}',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  noExtensionsTitle: 'No Reasonix extensions are installed.',
  noExtensionsHint:
    'Install one with Reasonix, or link a development folder from the Extensions section of this sidebar. Its cards, forms and status appear here.',
  untrustedTitle: 'This workspace is not trusted, so no Reasonix extensions run.',
  untrustedHint: 'Trust the workspace to start them.',
  allStoppedTitle: 'All Reasonix extensions are stopped.',
  allStoppedHint:
    'Start or restart them from the Extensions section of this sidebar, or run “Reasonix: Reload Runtime” from the Command Palette.',
  nothingTitle: 'Nothing published yet.',
  nothingHint: 'Cards, forms and status from your running Reasonix extensions appear here.',
  manageTrust: 'Manage Workspace Trust',
  showMore: 'Show more',
  showMoreLabel: 'Show more of this Markdown ({0} characters not shown yet)',
};
// l10n-table

export type ViewStrings = typeof VIEW_STRINGS;
export type ViewStringKey = keyof ViewStrings;

// l10n-table
/** What the hub answers the view when an intent no longer has a target. */
export const HUB_MESSAGES = {
  cardActionGone: 'This card no longer offers that action.',
  panelActionGone: 'This panel no longer offers that action.',
  viewActionGone: 'This view no longer offers that action.',
  cardStale: 'The extension that published this card has stopped.',
  panelStale: 'The extension that published this panel has stopped.',
  viewStale: 'The extension that published this view has stopped.',
  formGone: 'This form is no longer available.',
  formStale: 'The extension that published this form has stopped.',
};
// l10n-table

export type HubMessages = typeof HUB_MESSAGES;

// l10n-table
/**
 * The page on a tool's card in VS Code's chat (issue 41, webview/mcpApp/): its own lines. It runs
 * outside the extension, so it translates them itself, by the host context's `locale`, from the
 * zh-cn bundle entries esbuild.mjs inlines for these tables.
 */
export const CARD_STRINGS = {
  cardWaiting: 'Waiting for the extension’s view…',
  cardNoView: 'No Reasonix view was published for this call.',
  cardNotLive:
    'This Reasonix view is no longer live: it belonged to a run before the window was reloaded or the extension restarted. The tool’s text result is what the model read.',
  cardUnreadable: 'Reasonix: the views of this call cannot be read ({0}).',
};
// l10n-table

export type CardStrings = typeof CARD_STRINGS;

/** `{0}`, `{1}`… replaced by the arguments; a placeholder without an argument stays as written. */
export function formatText(template: string, ...args: readonly string[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? args[Number(i)] : m));
}

/** Strings a host sent, kept only where the key is ours and the value is text; the rest is English. */
export function viewStringsFrom(raw: unknown): ViewStrings {
  const out: Record<string, string> = { ...VIEW_STRINGS };
  if (typeof raw === 'object' && raw !== null) {
    for (const k of Object.keys(VIEW_STRINGS)) {
      const v = (raw as Record<string, unknown>)[k];
      if (typeof v === 'string' && v.length > 0) out[k] = v;
    }
  }
  return out as ViewStrings;
}
