// `fs/read_text_file` and `fs/write_text_file` as the client serves them to Reasonix: the policy
// (the path must be inside the session's folder, symlinks resolved; a read's `line`/`limit`
// slicing; a size bound) is here, plain Node; where the text comes from and goes to is the face's
// `DocumentAccess` (VS Code: its open documents, so unsaved changes are what the agent reads, and
// writes as undoable edits). Every refusal is a JSON-RPC error that says what to do.
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';

/** The largest text served to a read (Reasonix reads a window of a bigger file with `line`/`limit`). */
export const MAX_READ_CHARS = 4 * 1024 * 1024;

/** What the face gives the client: the text a file shows now, and a write the user can undo. */
export interface DocumentAccess {
  /** The file's text as the editor shows it (unsaved changes included); undefined when there is no such file. */
  read(file: string): Promise<string | undefined>;
  /** Replaces (or creates) the file's text. */
  write(file: string, content: string): Promise<void>;
}

/**
 * `file` resolved inside `folder`, or a JSON-RPC invalid-params error naming both. The path must be
 * absolute (ACP); `..` and symlinks are resolved before the check (the deepest existing ancestor's
 * real path), so a link inside the folder to a file outside it is refused too.
 */
export function insideFolder(folder: string, file: unknown): string {
  if (typeof file !== 'string' || !path.isAbsolute(file))
    throw RequestError.invalidParams({ path: file }, 'the path must be an absolute path inside the session folder');
  const root = realOrSelf(path.resolve(folder));
  const target = realOfDeepest(path.resolve(file));
  const rel = path.relative(root, target);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    throw RequestError.invalidParams(
      { path: file, folder },
      `${file} is outside this session's folder (${folder}); VS Code serves Reasonix only the files inside it`,
    );
  return target;
}

/** Lines `line` (1-based) … `line + limit - 1` of `text`, with their line ends; the whole text without either. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (line == null && limit == null) return text;
  const start = Math.max(1, Math.floor(line ?? 1));
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const end = limit == null ? lines.length : start - 1 + Math.max(0, Math.floor(limit));
  return lines.slice(start - 1, end).join('');
}

/** Serves one session's file requests through `docs`, inside `folder`. */
export class SessionFiles {
  constructor(
    private readonly folder: string,
    private readonly docs: DocumentAccess,
  ) {}

  async read(p: { path: unknown; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
    const file = insideFolder(this.folder, p.path);
    let text: string | undefined;
    try {
      text = await this.docs.read(file);
    } catch (err) {
      throw RequestError.internalError({ path: file }, `VS Code could not read ${file}: ${(err as Error).message}`);
    }
    if (text === undefined) throw RequestError.resourceNotFound(file);
    const content = sliceLines(text, p.line, p.limit);
    if (content.length > MAX_READ_CHARS)
      throw RequestError.invalidParams(
        { path: file, chars: content.length },
        `${file} is larger than ${MAX_READ_CHARS} characters; read it in windows (line, limit)`,
      );
    return { content };
  }

  async write(p: { path: unknown; content: unknown }): Promise<Record<string, never>> {
    const file = insideFolder(this.folder, p.path);
    if (typeof p.content !== 'string') throw RequestError.invalidParams({ path: file }, 'content must be a string');
    try {
      await this.docs.write(file, p.content);
    } catch (err) {
      throw RequestError.internalError({ path: file }, `VS Code could not write ${file}: ${(err as Error).message}`);
    }
    return {};
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** The real path of `p`'s deepest existing ancestor, with the rest of `p` appended. */
function realOfDeepest(p: string): string {
  let head = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...rest);
    } catch {
      const up = path.dirname(head);
      if (up === head) return p;
      rest.unshift(path.basename(head));
      head = up;
    }
  }
}
