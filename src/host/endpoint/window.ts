// One window's endpoint: the private directory, the server with the kinds its rooms registered, and
// the window's record in the registry (what the bridge and the relay look it up by). The rooms that
// serve on it (hooks/, mcp/) bring their kinds and what they add to the record; this file opens,
// records and closes.
import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import type { Logger } from '../log';
import { PROTOCOL_VERSION } from './lines';
import { endpointPath, ensurePrivateDir, newId, newToken } from './privateDir';
import {
  recordRuntime,
  removeStaleWindows,
  removeWindowRecord,
  writeWindowRecord,
  type WindowRecord,
} from './registry';
import { listenEndpoint, type EndpointKinds } from './server';

export interface WindowEndpointOptions {
  /** Where the endpoint may live, best first (hooksDirs()): the first usable one is taken. */
  dirs: readonly string[];
  /** The program the launchers run the bridge with (the extension host's process.execPath). */
  runtime: string;
  /** Every workspace folder of the window (what the record advertises). */
  folders(): string[];
  /** The kinds of request served, one entry each (asked only after open() resolved). */
  kinds: EndpointKinds;
  /** What the serving rooms add to the record (hooks/: who takes part where). */
  record?(): Partial<WindowRecord>;
  logger: Logger;
}

export class WindowEndpoint {
  private constructor(
    private readonly opts: WindowEndpointOptions,
    readonly dir: string,
    readonly id: string,
    /** The socket or pipe; '' when none could be opened (`problem` says why). */
    readonly endpoint: string,
    private readonly token: string,
    private readonly server: Server | undefined,
    private readonly startedAt: number,
    /** Why the window has no endpoint (then hooks are answered by the bridge alone: see open()). */
    readonly problem?: string,
  ) {}

  /**
   * Creates the private directory, listens, records the runtime and this window, in the first of
   * `dirs` where that works. When listening works nowhere, the window is still recorded, without
   * an endpoint and with `problem` set, where a directory could be made: the bridge then refuses
   * what its required extensions would have ruled on instead of letting everything through. Throws
   * only when no directory is usable at all.
   */
  static async open(opts: WindowEndpointOptions): Promise<WindowEndpoint> {
    const problems: string[] = [];
    let recordDir: string | undefined;
    for (const dir of opts.dirs) {
      try {
        ensurePrivateDir(dir);
      } catch (err) {
        problems.push((err as Error).message);
        continue;
      }
      recordDir ??= dir;
      removeStaleWindows(dir);
      const id = newId();
      const token = newToken();
      const endpoint = endpointPath(dir, id);
      let server: Server;
      try {
        server = await listenEndpoint(endpoint, token, opts.kinds, (m) => opts.logger.warn(m));
      } catch (err) {
        problems.push(`could not listen on ${endpoint}: ${(err as Error).message}`);
        continue;
      }
      return WindowEndpoint.recorded(new WindowEndpoint(opts, dir, id, endpoint, token, server, Date.now()));
    }
    const why = problems.join('; ') || 'no directory to open it in';
    if (!recordDir) throw new Error(why);
    return WindowEndpoint.recorded(
      new WindowEndpoint(opts, recordDir, newId(), '', newToken(), undefined, Date.now(), why),
    );
  }

  private static recorded(w: WindowEndpoint): WindowEndpoint {
    recordRuntime(w.dir, w.opts.runtime);
    w.updateRecord();
    return w;
  }

  /** Re-writes the record (call when workspace folders, or what the serving rooms record, change). */
  updateRecord(): void {
    const record: WindowRecord = {
      v: PROTOCOL_VERSION,
      id: this.id,
      pid: process.pid,
      endpoint: this.endpoint,
      token: this.token,
      folders: this.opts.folders(),
      startedAt: this.startedAt,
      ...this.opts.record?.(),
    };
    if (this.problem) record.problem = this.problem;
    writeWindowRecord(this.dir, record);
  }

  /** Removes the record, stops listening and removes the socket. */
  async close(): Promise<void> {
    removeWindowRecord(this.dir, this.id);
    const server = this.server;
    if (!server) return;
    await new Promise<void>((r) => server.close(() => r()));
    if (process.platform !== 'win32') rmSync(this.endpoint, { force: true });
  }
}
