// One `@reasonix` chat turn as parts a chat face draws, from the session's standard ACP updates:
// message chunks as Markdown, thoughts kept out of the answer (a progress line says the agent is
// thinking), tool calls and their updates as progress with their status, a plan as a checklist.
// Every Reasonix-sourced string is redacted here, once. Plain data: the VS Code face maps each part
// onto its ChatResponseStream call; the tests read the parts.

import { redact } from '../redact';

export type TurnPart =
  | { kind: 'markdown'; value: string }
  | { kind: 'progress'; value: string }
  | { kind: 'plan'; entries: { content: string; status: string }[] };

/** A tool's title shown in progress, at most. */
const MAX_TITLE = 200;

export class TurnRenderer {
  private readonly tools = new Map<string, string>();
  private thinking = false;

  /** The parts one update adds (none for the kinds a chat turn does not show). */
  onUpdate(u: { sessionUpdate: string } & Record<string, unknown>): TurnPart[] {
    switch (u.sessionUpdate) {
      case 'agent_message_chunk': {
        this.thinking = false;
        const text = textOf(u.content);
        return text ? [{ kind: 'markdown', value: redact(text) }] : [];
      }
      case 'agent_thought_chunk':
        // Thoughts stay collapsed: one progress line per run of thought chunks, never the answer.
        if (this.thinking) return [];
        this.thinking = true;
        return [{ kind: 'progress', value: 'Thinking…' }];
      case 'tool_call': {
        const id = String(u.toolCallId ?? '');
        const title = cut(redact(String(u.title ?? id)));
        this.tools.set(id, title);
        return [{ kind: 'progress', value: `${title} (${String(u.status ?? 'pending')})` }];
      }
      case 'tool_call_update': {
        const id = String(u.toolCallId ?? '');
        if (typeof u.title === 'string') this.tools.set(id, cut(redact(u.title)));
        if (typeof u.status !== 'string') return [];
        return [{ kind: 'progress', value: `${this.tools.get(id) ?? id} (${u.status})` }];
      }
      case 'plan': {
        const entries = Array.isArray(u.entries) ? u.entries : [];
        return [
          {
            kind: 'plan',
            entries: entries
              .filter((e): e is { content: unknown; status: unknown } => !!e && typeof e === 'object')
              .map((e) => ({ content: cut(redact(String(e.content ?? ''))), status: String(e.status ?? 'pending') })),
          },
        ];
      }
      default:
        return [];
    }
  }
}

/** A plan as a Markdown checklist (done entries checked, the running one marked). */
export function planMarkdown(entries: readonly { content: string; status: string }[]): string {
  return entries
    .map((e) => `- [${e.status === 'completed' ? 'x' : ' '}] ${e.content}${e.status === 'in_progress' ? ' …' : ''}`)
    .join('\n');
}

function textOf(content: unknown): string {
  const c = content as { type?: unknown; text?: unknown } | undefined;
  return c?.type === 'text' && typeof c.text === 'string' ? c.text : '';
}

function cut(s: string): string {
  return s.length > MAX_TITLE ? `${s.slice(0, MAX_TITLE)}…` : s;
}
