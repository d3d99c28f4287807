// The card page's words (issue 41): English from src/webviewProtocol/strings.ts, or Simplified
// Chinese when the host context's `locale` asks for it (VS Code passes its display language). The
// page runs outside the extension, so esbuild.mjs inlines the zh-cn l10n bundle's entries for the
// webview's string tables as REASONIX_CARD_ZH_CN. Text from an extension never goes through here.
import { CARD_STRINGS, formatText, VIEW_STRINGS, type CardStrings } from '../../src/webviewProtocol/strings';
import { useStrings } from '../text';

declare const REASONIX_CARD_ZH_CN: Record<string, string>;

/** The translations for a locale tag, or undefined for English (zh-cn, zh-hans and zh-sg read Simplified Chinese). */
function translationsFor(locale: unknown): Record<string, string> | undefined {
  if (typeof locale !== 'string') return undefined;
  return /^zh(-(cn|sg|hans)(-.*)?)?$/i.test(locale) ? REASONIX_CARD_ZH_CN : undefined;
}

let card: CardStrings = CARD_STRINGS;

/** Takes the host's locale: the page's own lines and the shared renderer's labels follow it. */
export function useLocale(locale: unknown): void {
  const t = translationsFor(locale);
  const pick = <T extends Record<string, string>>(table: T): T =>
    Object.fromEntries(Object.entries(table).map(([k, v]) => [k, t?.[v] ?? v])) as T;
  card = pick(CARD_STRINGS);
  useStrings(pick(VIEW_STRINGS));
  document.documentElement.lang = t ? 'zh-CN' : 'en';
}

/** One of the page's own lines, `{0}`… filled. */
export function cardText(key: keyof CardStrings, ...args: readonly string[]): string {
  return formatText(card[key], ...args);
}
