// What the view remembers across hiding, view switches and window reloads: typed-but-unsent form
// values and which plugin groups are collapsed. Written synchronously with setState on every edit
// (cheap, and nothing is lost if the view is torn down a moment later); mirrored to the extension
// with a short trailing delay so another view (sidebar ↔ panel) picks the drafts up too.
import type { Drafts, FormValues } from '../src/webviewProtocol/messages';
import type { VsCodeApi } from './vscodeApi';

interface Persisted {
  v: 1;
  drafts: Drafts;
  collapsed: string[];
}

function isPersisted(x: unknown): x is Persisted {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return o.v === 1 && typeof o.drafts === 'object' && o.drafts !== null && Array.isArray(o.collapsed);
}

export class ViewState {
  private drafts: Drafts;
  private readonly collapsed: Set<string>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly api: VsCodeApi,
    private readonly mirrorDelayMs = 250,
  ) {
    const saved = api.getState();
    this.drafts = isPersisted(saved) ? { ...saved.drafts } : {};
    this.collapsed = new Set(
      isPersisted(saved) ? saved.collapsed.filter((c): c is string => typeof c === 'string') : [],
    );
  }

  draft(key: string): FormValues | undefined {
    return Object.prototype.hasOwnProperty.call(this.drafts, key) ? this.drafts[key] : undefined;
  }

  setDraft(key: string, values: FormValues): void {
    this.drafts[key] = values;
    this.save(true);
  }

  /** The extension's copy fills in drafts this view does not have (e.g. typed in the other view). */
  mergeFromHost(host: Drafts): void {
    for (const [k, v] of Object.entries(host)) if (!(k in this.drafts)) this.drafts[k] = v;
    this.save(false);
  }

  /** Drop drafts whose form or prompt no longer exists. */
  prune(live: (key: string) => boolean): void {
    let changed = false;
    for (const k of Object.keys(this.drafts)) {
      if (!live(k)) {
        delete this.drafts[k];
        changed = true;
      }
    }
    if (changed) this.save(true);
  }

  isCollapsed(groupId: string): boolean {
    return this.collapsed.has(groupId);
  }

  setCollapsed(groupId: string, collapsed: boolean): void {
    if (collapsed) this.collapsed.add(groupId);
    else this.collapsed.delete(groupId);
    this.save(false);
  }

  /** Send any pending mirror now (the page is going away). */
  flush(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.api.postMessage({ type: 'persist', drafts: this.drafts });
  }

  private save(mirror: boolean): void {
    const state: Persisted = { v: 1, drafts: this.drafts, collapsed: [...this.collapsed] };
    this.api.setState(state);
    if (!mirror) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.api.postMessage({ type: 'persist', drafts: this.drafts });
    }, this.mirrorDelayMs);
  }
}
