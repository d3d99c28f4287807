// The webview's stand-in for linkify-it (esbuild alias, esbuild.mjs): the Markdown parser runs
// with `linkify: false` (webview/logic/markdown.ts), and markdown-it consults its linkify instance
// only when that option is on, so the 11 KB matcher would be dead weight in the bundle. Should
// the option ever be turned on, every bare URL stays plain text (nothing becomes a link unseen).
export class LinkifyIt {
  test(): boolean {
    return false;
  }
  pretest(): boolean {
    return false;
  }
  match(): null {
    return null;
  }
  matchAtStart(): null {
    return null;
  }
}
