// The real engine Sidecar, logging through the extension's channel: frames at trace only while
// the channel is at Trace (and reasonix.trace.frames is on), stderr at debug while it is at Debug.
import * as vscode from 'vscode';
import { Sidecar } from '../host/sidecar';
import type { HostSidecar, SidecarFactory } from './composition';
import type { ExtensionLog } from './logging';

export function realSidecarFactory(log: ExtensionLog): SidecarFactory {
  const debugOn = () => {
    const l = log.channel.logLevel;
    return l !== vscode.LogLevel.Off && l <= vscode.LogLevel.Debug;
  };
  return (init): HostSidecar =>
    new Sidecar({
      plugin: init.plugin,
      session: init.session,
      uiHost: init.uiHost,
      handlers: init.handlers,
      timeouts: init.timeouts,
      logger: init.logger,
      traceEnabled: () => log.tracesFrames(),
      debugEnabled: debugOn,
    });
}
