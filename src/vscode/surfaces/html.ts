// The webview's HTML. Our own template, no sidecar content: the app renders everything else from
// messages. CSP: nothing by default; our script only by a per-render nonce; styles, fonts and
// our images only from the extension (cspSource); remote images only over https. No
// 'unsafe-inline', no 'unsafe-eval'. Kept free of the vscode module so tests can render it.
import { randomBytes } from 'node:crypto';

export interface SurfacesHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUris: string[];
  title: string;
  /** BCP 47 language of the view's own labels (vscode.env.language); English when absent. */
  lang?: string;
  /** The landmark's accessible name; English when absent. */
  rootLabel?: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} https:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function surfacesHtml(i: SurfacesHtmlInput): string {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(i.nonce))
    throw new Error('surfacesHtml: nonce must be at least 16 url-safe characters');
  const styles = i.styleUris.map((u) => `<link rel="stylesheet" href="${attr(u)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="${attr(i.lang ?? 'en')}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(i.cspSource, i.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${attr(i.title)}</title>
  </head>
  <body>
    <main id="root" aria-label="${attr(i.rootLabel ?? 'Reasonix surfaces')}"></main>
    <script nonce="${i.nonce}" src="${attr(i.scriptUri)}"></script>
  </body>
</html>
`;
}
