// VS Code carries every reported part from the extension host through the workbench and back to
// the requesting extension, in batches of about 30 parts. A fast provider sends one text chunk
// per token, so reporting each as its own part makes that hop the bottleneck. This sink joins the
// consecutive text chunks that arrive within a short window (COALESCE_MS, well under VS Code's own
// 30 ms batching delay) into one part: the text and its order are unchanged, and no text waits
// longer than the window. Any other part flushes the pending text first, so text and tool calls
// keep their relative order. (Chunks arrive one per event-loop turn — the JSON-RPC layer
// dispatches each message on its own turn — so a one-turn window would join almost nothing.)
import type { PartSink } from './respond';

export const COALESCE_MS = 8;

export class CoalescingSink implements PartSink {
  private pending = '';
  private scheduled: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly out: PartSink,
    private readonly windowMs = COALESCE_MS,
  ) {}

  text(value: string): void {
    if (this.closed) return;
    this.pending += value;
    this.scheduled ??= setTimeout(() => this.flush(), this.windowMs);
  }

  toolCall(callId: string, name: string, input: object): void {
    if (this.closed) return;
    this.flush();
    this.out.toolCall(callId, name, input);
  }

  thinking(value: string, signature?: string): void {
    if (this.closed) return;
    this.flush();
    this.out.thinking(value, signature);
  }

  /** Reports the pending text now (at the end of a response, or before an error is raised). */
  flush(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    if (this.closed || !this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.out.text(text);
  }

  /** Cancelled: drop the pending text and report nothing more. */
  discard(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.pending = '';
    this.closed = true;
  }
}
