// What the faces see of the folder's tools: the listing and how one call ended.
import type { ToolFailureReason, ToolPoint } from './ports';

/** One tool a running extension of the folder serves (HOST_SPEC_V2 §12 "catalog"). */
export interface ToolInfo {
  pluginId: string;
  /** The tool's own (unprefixed) name, sent in `extension/tool/call`. */
  name: string;
  /** `ext__<plugin id>__<tool name>`: the name models, interceptors and agents see. */
  modelName: string;
  /** From the manifest. */
  description: string;
  /** From the manifest: a JSON Schema object. */
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  /**
   * Whether the tool's extension declares the `ui` capability, so it may anchor a view to a call
   * of the tool (`anchor: "tool:<callId>"`, HOST_SPEC_V2 §7.3). Read from the manifest: free.
   */
  mayAnchorView: boolean;
}

/** A tool by its model-facing name, or by plugin id and tool name. */
export type ToolRef = string | { pluginId: string; name: string };

export interface ToolCallOptions {
  signal?: AbortSignal;
  /**
   * Which part of the folder's `tool.before` / `permission.decision` / `tool.after` chain the engine
   * runs for this call: `'engine'` (default) all three around the call, as Reasonix does. `'after'`
   * says the caller has already dispatched `tool.before` and `permission.decision` for this very
   * call, with the model-facing name and exactly the arguments it now passes (VS Code's agent asked
   * our PreToolUse hook before calling the tool through MCP): the engine then sends the arguments as
   * given and runs only `tool.after`, so no interceptor sees the call twice. Anything else is refused.
   */
  interceptors?: 'engine' | 'after';
  /**
   * The Reasonix call id a caller minted for this call (issue 41: an MCP client that draws views on
   * a tool's card). Handed to the sidecar only for a tool whose extension may anchor a view
   * (`mayAnchorView`), as `arguments._meta["reasonix/callId"]`, added after the interceptors have
   * ruled (they see the model's arguments); the extension anchors its view to `tool:<callId>`.
   */
  callId?: string;
}

/** The member of a call's `arguments._meta` that carries the call id (docs/webview.md "Views on a tool’s card"). */
export const CALL_ID_META_KEY = 'reasonix/callId';

interface CallIdentity {
  pluginId: string;
  /** The unprefixed tool name (after any `tool.before` rename). */
  name: string;
  modelName: string;
}

/**
 * How one call ended. `result`: the tool answered; `isError: true` is the tool's own failure, which
 * the model reads as an error result. `refused`: an interceptor blocked or denied it (or could not
 * be asked); at `tool.after` the tool ran but its result is withheld. `failed`: the call could not
 * run (a protocol error: the extension is down, answered with a JSON-RPC error or an invalid
 * result, timed out, or the call was cancelled or names no tool the folder offers).
 */
export type ToolCallOutcome =
  | (CallIdentity & {
      kind: 'result';
      /** What the model reads, cut at MAX_TOOL_CONTENT_CHARS with a note. */
      content: string;
      isError: boolean;
      /** Set when the content was cut: its length in characters before. */
      truncatedFrom?: number;
      /** Interceptors whose `tool.after` replacement was applied. */
      changedBy?: string[];
    })
  | (CallIdentity & {
      kind: 'refused';
      point: ToolPoint;
      /** The extension that blocked or denied it (or that could not be asked). */
      by: string;
      /** Redacted; the text the model and the user see. */
      message: string;
    })
  | (Partial<CallIdentity> & {
      /** Always known; plugin id and tool name are absent when the ref named no tool of the folder. */
      modelName: string;
      kind: 'failed';
      reason: ToolFailureReason;
      /** The JSON-RPC code the extension answered with, for `extension_error`. */
      code?: number;
      /** Redacted; names the tool, the extension and what to do next. */
      message: string;
    });
