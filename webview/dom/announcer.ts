// One polite live region for the whole view. A status that changes and a notification that
// arrives are said once, from deltas only (never from a snapshot or a re-render that changed
// nothing audible); several in one burst are said together.
import type { Surface } from '../../src/webviewProtocol/messages';
import { h } from './h';
import { text } from '../text';

/** "Warning: Build": a severity said before the words it qualifies. */
function severe(sev: 'info' | 'warn' | 'error' | undefined, words: string): string {
  if (sev === 'warn') return text('spokenWarning', words);
  if (sev === 'error') return text('spokenError', words);
  return words;
}

function inProgress(s: Surface): boolean {
  return s.kind === 'status' && typeof s.payload.progress === 'number' && s.payload.progress < 1;
}

/** What a screen reader hears for a status or notification; undefined for other kinds. */
export function spokenText(s: Surface): string | undefined {
  if (s.kind === 'status')
    return `${s.pluginId}: ${severe(s.payload.severity, `${s.payload.label}${s.payload.detail ? `, ${s.payload.detail}` : ''}`)}`;
  if (s.kind === 'notification') return `${s.pluginId}: ${severe(s.payload.severity, s.payload.title)}`;
  if (s.kind === 'panel') {
    const p = s.payload;
    const pct = typeof p.progress === 'number' ? `, ${Math.round(Math.min(1, Math.max(0, p.progress)) * 100)}%` : '';
    return `${s.pluginId}: ${p.title || s.surfaceId}${p.text ? `, ${p.text}` : ''}${pct}`;
  }
  return undefined;
}

/**
 * Whether the change from `before` to `after` is worth announcing: a new notification; a status
 * that is new or says something else now. Progress ticks of a running status stay quiet (its
 * start and its end are said); stale copies (the plugin stopped) are not news.
 */
export function shouldAnnounce(before: Surface | undefined, after: Surface): boolean {
  if (after.stale) return false;
  if (after.kind === 'notification') return !before;
  if (after.kind === 'panel') return panelNews(before, after) !== 'none';
  if (after.kind !== 'status') return false;
  if (!before || before.kind !== 'status' || before.stale) return true;
  if (inProgress(before) && inProgress(after)) return false;
  return spokenText(before) !== spokenText(after);
}

/** The fraction a panel shows, or undefined (no bar or indeterminate). */
function panelProgress(s: Surface | undefined): number | undefined {
  return s?.kind === 'panel' && typeof s.payload.progress === 'number' ? s.payload.progress : undefined;
}

/**
 * What a panel's change is as news: its first showing, a start (a bar appears) or an end (the bar
 * reaches 100% or goes away) are said at once; any other change that sounds different is an
 * update, said at most once a second (PanelPacer); a change nobody would hear is none.
 */
export function panelNews(before: Surface | undefined, after: Surface): 'now' | 'update' | 'none' {
  if (after.stale || after.kind !== 'panel') return 'none';
  if (!before || before.kind !== 'panel' || before.stale) return 'now';
  if (spokenText(before) === spokenText(after)) return 'none';
  const [a, b] = [panelProgress(before), panelProgress(after)];
  const running = (p: number | undefined) => p !== undefined && p < 1;
  if (running(a) !== running(b)) return 'now';
  return 'update';
}

/** Panel updates said at most once per second per panel; starts and ends always. */
export class PanelPacer {
  private readonly said = new Map<string, number>();

  constructor(
    private readonly intervalMs = 1000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  admit(key: string, news: 'now' | 'update' | 'none'): boolean {
    if (news === 'none') return false;
    const t = this.now();
    const last = this.said.get(key);
    if (news === 'update' && last !== undefined && t - last < this.intervalMs) return false;
    this.said.set(key, t);
    return true;
  }

  forget(key: string): void {
    this.said.delete(key);
  }
}

export class Announcer {
  readonly el = h('div', {
    class: 'sr-only',
    role: 'status',
    'aria-live': 'polite',
    'aria-atomic': 'true',
    'data-announcer': true,
  });
  private pending: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly delayMs = 100) {}

  say(text: string): void {
    this.pending.push(text);
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  private flush(): void {
    this.timer = undefined;
    const text = this.pending.join('. ');
    this.pending = [];
    this.el.textContent = text;
  }
}
