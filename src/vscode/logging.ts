// One LogOutputChannel for the whole extension. Its level follows VS Code's (Developer: Set Log
// Level…), so lifecycle lines go at info, sidecar stderr at debug (warn around a failure) and
// protocol frames at trace. Every line is credential-redacted here, whatever the caller did.
import * as vscode from 'vscode';
import type { Logger } from '../host/log';
import { redact } from '../host/redact';

export interface ExtensionLog extends Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  /** True when protocol frames would be written (level Trace and the setting on). */
  tracesFrames(): boolean;
  show(): void;
}

export function createLog(name = 'Reasonix'): ExtensionLog {
  const channel = vscode.window.createOutputChannel(name, { log: true });
  const clean = (m: string) => redact(m);
  return {
    channel,
    trace: (m) => channel.trace(clean(m)),
    debug: (m) => channel.debug(clean(m)),
    info: (m) => channel.info(clean(m)),
    warn: (m) => channel.warn(clean(m)),
    error: (m) => channel.error(clean(m)),
    tracesFrames: () =>
      channel.logLevel === vscode.LogLevel.Trace &&
      vscode.workspace.getConfiguration('reasonix').get<boolean>('trace.frames', true),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}

/** Stderr of a sidecar: debug while healthy, warn when it explains a failure. */
export function logStderr(log: Logger, pluginId: string, tail: string, failing: boolean): void {
  for (const line of tail.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const text = `[${pluginId}] stderr: ${line}`;
    if (failing) log.warn(text);
    else log.debug(text);
  }
}
