// The engine logs through this port; the VS Code face maps it onto a LogOutputChannel, the CLI
// onto stderr, tests onto an array. Every string passed here is already credential-redacted.
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A logger that prefixes every line, e.g. with the plugin id. */
export function scopedLogger(base: Logger, scope: string): Logger {
  return {
    trace: (m) => base.trace(`[${scope}] ${m}`),
    debug: (m) => base.debug(`[${scope}] ${m}`),
    info: (m) => base.info(`[${scope}] ${m}`),
    warn: (m) => base.warn(`[${scope}] ${m}`),
    error: (m) => base.error(`[${scope}] ${m}`),
  };
}
