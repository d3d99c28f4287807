// Turns the browser console into terminal lines. The workbench logs as
// console.log('%c INFO', 'color: …', format, ...args); the extension host's console (mocha's
// spec reporter, the extension's own logs) arrives the same way. We drop the styling, apply the
// printf-style format, and hide the workbench's known start-up noise on this offline machine.
import { format } from 'node:util';
import type { ConsoleMessage } from 'playwright-core';

const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^Failed to load resource/,
  /open-vsx\.org/,
  /^\[Service Worker\]/,
  /^\[AccountPolicyGate\]/,
  /^\[AgentHost/,
  /^Creation of workbench contribution/,
  /authentication provider '.*' to register/,
  /^The web worker extension host is started/,
  /allow-scripts and allow-same-origin/,
  /^Updating additional builtin extensions cache/,
  /^\[reconnection-grace-time\]/,
  /vsda/,
];

export function isNoise(line: string): boolean {
  return NOISE.some((re) => re.test(line));
}

/** The message as the terminal should show it, or undefined for styling-only/noise lines. */
export async function consoleLine(msg: ConsoleMessage, verbose = false): Promise<string | undefined> {
  let args: unknown[];
  try {
    args = await Promise.all(msg.args().map((a) => a.jsonValue() as Promise<unknown>));
  } catch {
    args = [msg.text()]; // the page navigated away meanwhile
  }
  let level = '';
  if (typeof args[0] === 'string' && /^%c\s*[A-Z]+/.test(args[0])) {
    level = args[0].replace(/^%c\s*/, '').trim();
    args = args.slice(2);
  }
  if (args.length === 0) return undefined;
  const text = typeof args[0] === 'string' ? format(...(args as [string, ...unknown[]])) : format('%o', ...args);
  if (!verbose && isNoise(text)) return undefined;
  // Multi-line errors from the workbench: keep the message, drop the minified stack.
  const shown = /^(ERR|WARN)$/.test(level) && !verbose ? text.split('\n')[0] : text;
  return level === 'ERR' || level === 'WARN' ? `[${level}] ${shown}` : shown;
}
