// One tool call, two paths, one chain (issue 24). In a VS Code window an agent's call of a Reasonix
// extension tool reaches us twice: as agent hooks (PreToolUse before it, PostToolUse after it,
// through the hook bridge) and as the MCP call itself (through the window's MCP server). Each
// interceptor must see the call once, as Reasonix would show it. The ledger is how the two paths
// recognise one call: the same folder, the same model-facing tool name and the same arguments
// (compared as canonical JSON, so key order does not matter).
//   PreToolUse ran tool.before + permission.decision → `ruled` noted;
//   the MCP call takes it → the engine runs only tool.after; otherwise the engine runs all three;
//   either way the MCP path notes `afterRan`, and PostToolUse takes it → tool.after is not run again.
// An entry not taken within LEDGER_TTL_MS, or pushed out past LEDGER_MAX_ENTRIES, is forgotten:
// the call then runs its whole chain on the MCP path (an interceptor may see it twice, never none).

import { depthPast } from './depth';

/** Long enough for a user to read a tool confirmation and answer it. */
export const LEDGER_TTL_MS = 30 * 60_000;
/** Per ledger; the oldest entries go first. */
export const LEDGER_MAX_ENTRIES = 1_000;

/** JSON text with object keys sorted at every depth: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type LedgerStage = 'ruled' | 'afterRan';

interface Entry {
  count: number;
  expiresAt: number;
}

export class ToolCallLedger {
  /** Insertion order is age order: the first key is the oldest. */
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Undefined for arguments nested past MAX_TOOL_ARGUMENT_DEPTH: canonicalJson recurses, and the
   * engine refuses such a call anyway, with its own clear error (issue 45 item 7), so it is never
   * noted and never found.
   */
  private key(stage: LedgerStage, folder: string, tool: string, args: unknown): string | undefined {
    if (depthPast(args) !== undefined) return undefined;
    return `${stage}\u0000${folder}\u0000${tool}\u0000${canonicalJson(args ?? {})}`;
  }

  /** One more call of `tool` with `args` in `folder` has passed `stage`. */
  note(stage: LedgerStage, folder: string, tool: string, args: unknown): void {
    this.prune();
    const key = this.key(stage, folder, tool, args);
    if (key === undefined) return;
    const entry = this.entries.get(key);
    const expiresAt = this.now() + LEDGER_TTL_MS;
    if (entry) {
      entry.count++;
      entry.expiresAt = expiresAt;
      return;
    }
    this.entries.set(key, { count: 1, expiresAt });
    if (this.entries.size > LEDGER_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Whether such a call had passed `stage`; counts it off when it had. */
  take(stage: LedgerStage, folder: string, tool: string, args: unknown): boolean {
    const key = this.key(stage, folder, tool, args);
    if (key === undefined) return false;
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return false;
    }
    if (--entry.count === 0) this.entries.delete(key);
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
