// Which URLs a sidecar's Markdown may point at. Shared so the webview hides what the extension
// would refuse anyway, and the extension re-checks because the webview is not trusted.

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const MAX_URL = 8192;

function parse(url: string): URL | undefined {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL) return undefined;
  // Control characters and whitespace inside a URL are a classic scheme-smuggling trick
  // ("java\tscript:"); URL parsing would silently strip them, so refuse instead.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url)) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** http, https and mailto only; absolute URLs only (a webview has no meaningful base). */
export function isAllowedLink(url: string): boolean {
  const u = parse(url);
  if (!u || !LINK_SCHEMES.has(u.protocol)) return false;
  if (u.protocol !== 'mailto:' && !u.hostname) return false;
  return true;
}

/** Images load only over https (the CSP says the same: img-src https:). */
export function isAllowedImage(url: string): boolean {
  const u = parse(url);
  return !!u && u.protocol === 'https:' && !!u.hostname;
}
