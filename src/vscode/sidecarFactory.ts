// The real engine Sidecar, logging through the extension's channel: frames at trace only while
// the channel is at Trace (and reasonix.trace.frames is on), stderr at debug while it is at Debug.
import * as vscode from 'vscode';
import { engineModule } from './engineModule';
import type { SidecarFactory } from '../host/session';
import type { DebugLaunch } from '../host/sidecar';
import type { FrameTap } from '../host/wire';
import type { ExtensionLog } from './logging';

/** Package root → where its sidecars' frames go (a protocol trace, src/vscode/author/traceView.ts). */
export const frameTaps = new Map<string, FrameTap>();
/** Package root → the debug start Debug Extension… asked for (src/vscode/author/debugExtension.ts). */
export const debugLaunches = new Map<string, DebugLaunch>();

/**
 * A debug start is used once, by the start Debug Extension… asked for: a later start (a reload on
 * change, a crash restart) is a normal one, so no process waits for a debugger nobody attaches.
 */
export function takeDebugLaunch(launches: Map<string, DebugLaunch>, root: string): DebugLaunch | undefined {
  const d = launches.get(root);
  launches.delete(root);
  return d;
}

export function realSidecarFactory(log: ExtensionLog): SidecarFactory {
  const debugOn = () => {
    const l = log.channel.logLevel;
    return l !== vscode.LogLevel.Off && l <= vscode.LogLevel.Debug;
  };
  return (opts) =>
    new (engineModule().Sidecar)({
      ...opts,
      traceEnabled: () => log.tracesFrames(),
      debugEnabled: debugOn,
      frameTap: () => frameTaps.get(opts.plugin.root),
      debugLaunch: () => takeDebugLaunch(debugLaunches, opts.plugin.root),
    });
}
