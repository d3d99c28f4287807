// Show Protocol Trace and Copy Protocol Trace as NDJSON (issue 42): one ring per linked development
// folder (src/host/trace), fed by its sidecars' frame tap from their first frame; the trace shows as
// a read-only document, one frame a line (direction, kind, method, id, size, the frame it pairs
// with and the latency, the redacted frame), filtered by method, surface or hook point. Part of
// dist/authoring.js.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { filterTrace, traceToNdjson, TraceRing, type TraceEntry, type TraceFilter } from '../../host/trace';
import type { FrameTap } from '../../host/wire';

export const TRACE_SCHEME = 'reasonix-trace';

/** What a command may be given instead of asking (tests, and the Extensions view's row). */
export interface TraceTarget {
  root: string;
  filter?: TraceFilter;
}

export class TraceRegistry implements vscode.Disposable {
  readonly rings = new Map<string, TraceRing>();
  private readonly docChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly subs: vscode.Disposable[];

  /** `taps` is what the extension's sidecar factory reads (package root → tap). */
  constructor(private readonly taps: Map<string, FrameTap>) {
    this.subs = [
      vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, {
        onDidChange: this.docChanged.event,
        provideTextDocumentContent: (uri) => this.render(uri),
      }),
    ];
  }

  /** Records the sidecars of these package roots from now on (their next frame). */
  sync(roots: readonly string[]): void {
    const wanted = new Set(roots.map((r) => path.resolve(r)));
    for (const root of [...this.rings.keys()])
      if (!wanted.has(root)) {
        this.rings.delete(root);
        this.taps.delete(root);
      }
    for (const root of wanted)
      if (!this.rings.has(root)) {
        const ring = new TraceRing();
        this.rings.set(root, ring);
        this.taps.set(root, ring.tap);
      }
  }

  private async pick(t?: TraceTarget): Promise<{ root: string; ring: TraceRing; filter: TraceFilter } | undefined> {
    let root = t?.root && path.resolve(t.root);
    if (!root) {
      const items = [...this.rings.keys()].map((r) => ({ label: path.basename(r), description: r, root: r }));
      if (!items.length) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('No development folder is linked: link one with Reasonix: Link Extension Folder… to trace it.'),
        );
        return undefined;
      }
      const chosen =
        items.length === 1
          ? items[0]
          : await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Trace which extension?') });
      root = chosen?.root;
    }
    const ring = root ? this.rings.get(root) : undefined;
    if (!root || !ring) return undefined;
    if (t) return { root, ring, filter: t.filter ?? {} };
    const entries = ring.snapshot();
    const distinct = (f: (e: TraceEntry) => string | undefined) =>
      [...new Set(entries.map(f).filter((v): v is string => !!v))].sort();
    const all = { label: vscode.l10n.t('Every frame'), filter: {} as TraceFilter };
    const choices = [
      all,
      ...distinct((e) => e.method).map((m) => ({
        label: m,
        description: vscode.l10n.t('method'),
        filter: { method: m },
      })),
      ...distinct((e) => e.surface).map((s) => ({
        label: s,
        description: vscode.l10n.t('surface'),
        filter: { surface: s },
      })),
      ...distinct((e) => e.hookPoint).map((h) => ({
        label: h,
        description: vscode.l10n.t('hook point'),
        filter: { hookPoint: h },
      })),
    ];
    const picked = await vscode.window.showQuickPick(choices, { placeHolder: vscode.l10n.t('Show which frames?') });
    return picked ? { root, ring, filter: picked.filter } : undefined;
  }

  async show(t?: TraceTarget): Promise<vscode.TextDocument | undefined> {
    const p = await this.pick(t);
    if (!p) return undefined;
    const uri = vscode.Uri.from({
      scheme: TRACE_SCHEME,
      path: `/${path.basename(p.root)}.trace`,
      query: JSON.stringify({ root: p.root, filter: p.filter }),
    });
    this.docChanged.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
  }

  async copy(t?: TraceTarget): Promise<string | undefined> {
    const p = await this.pick(t);
    if (!p) return undefined;
    const text = traceToNdjson(filterTrace(p.ring.snapshot(), p.filter));
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Copied {0} frames of {1} as NDJSON. Replay them with: reasonix-host replay <folder> <file>',
        text ? text.trimEnd().split('\n').length : 0,
        path.basename(p.root),
      ),
    );
    return text;
  }

  private render(uri: vscode.Uri): string {
    const { root, filter } = JSON.parse(uri.query) as { root: string; filter: TraceFilter };
    const ring = this.rings.get(root);
    if (!ring) return vscode.l10n.t('{0} is no longer linked: nothing is traced.', root);
    const entries = filterTrace(ring.snapshot(), filter);
    const head = vscode.l10n.t(
      '{0}: {1} frames (→ to the sidecar, ← from it; redacted; the ring keeps the latest 2,000). Copy as NDJSON: Reasonix: Copy Protocol Trace as NDJSON.',
      path.basename(root),
      entries.length,
    );
    return [head, '', ...entries.map(line)].join('\n') + '\n';
  }

  dispose(): void {
    for (const root of this.rings.keys()) this.taps.delete(root);
    this.subs.forEach((s) => s.dispose());
    this.docChanged.dispose();
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** One frame a line; control characters escaped so a frame cannot forge lines of its own. */
function line(e: TraceEntry): string {
  const t = new Date(e.at).toISOString().slice(11, 23);
  const pair =
    e.pairedSeq !== undefined
      ? e.latencyMs !== undefined
        ? `answers #${e.pairedSeq} after ${e.latencyMs} ms`
        : `answered by #${e.pairedSeq}`
      : '';
  const id = e.id !== undefined ? `id ${JSON.stringify(e.id)}` : '';
  const where = [e.hookPoint, e.surface].filter(Boolean).join(' ');
  const frame = typeof e.frame === 'string' ? e.frame : JSON.stringify(e.frame);
  const shown = frame.length > 400 ? `${frame.slice(0, 400)}…` : frame;
  return [
    `#${e.seq}`,
    t,
    e.dir === 'out' ? '→' : '←',
    e.kind,
    e.method ?? '',
    id,
    where,
    `${e.bytes} B`,
    pair,
    e.truncated ? '(truncated)' : '',
    // Control characters, escaped: a frame cannot start lines of its own in the document.
    shown.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  ]
    .filter(Boolean)
    .join('  ');
}
