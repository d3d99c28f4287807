// Debug Extension… (issue 42): how a linked extension's sidecar is started under a debugger, as
// data. The runtime is read from the checked command: a Node or Python interpreter named as the
// command, a script whose `#!` line names one, or a Go binary (its build-info marker). Node gets
// `--inspect-brk` on a loopback port; Python runs under `debugpy --wait-for-client`; a Go binary
// under `dlv exec --headless`. Each holds the sidecar before its first line until a debugger
// attaches, which is why the Sidecar drops the handshake deadline for such a start.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { DebugLaunch } from '../sidecar';

export type DebugRuntime = 'node' | 'python' | 'go';

/** Where the debugger attaches. */
export interface DebugAttach {
  host: string;
  port: number;
}

export type DebugPlan =
  | {
      ok: true;
      runtime: DebugRuntime;
      launch: DebugLaunch;
      attach: DebugAttach;
      /** A program to run first: it exits 0 only when the debug tool is installed (debugpy). */
      probe?: { command: string; args: string[] };
      /** What to install when the probe fails or the tool is not found. */
      install: string;
    }
  | { ok: false; runtime?: DebugRuntime; message: string };

export const DEBUG_HOST = '127.0.0.1';

const NODE = /^node(js)?(\.exe)?$/i;
const PYTHON = /^python(\d+(\.\d+)?)?(\.exe)?$/i;
/** The marker `go build` writes into every binary's build information. */
const GO_BUILDINFO = Buffer.from('\xff Go buildinf:', 'latin1');
/** Go binaries of a sidecar are a few MB; past this the file is not read for the marker. */
const GO_SCAN_LIMIT = 256 * 1024 * 1024;

export const INSTALL_DEBUGPY = 'debugpy for that Python (python3 -m pip install debugpy)';
export const INSTALL_DLV = 'Delve on PATH (go install github.com/go-delve/delve/cmd/dlv@latest)';

/** The interpreter a `#!` line names: its argv prefix and the program's base name. */
function shebang(file: string): { argv: string[]; program: string } | undefined {
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(256);
      head = buf.subarray(0, fs.readSync(fd, buf, 0, 256, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith('#!')) return undefined;
  const argv = head.slice(2).split('\n')[0].trim().split(/\s+/).filter(Boolean);
  if (!argv.length) return undefined;
  // `/usr/bin/env node`, `/usr/bin/env -S node --flag`: the program is the first non-option.
  if (path.basename(argv[0]) === 'env') {
    const rest = argv.slice(1);
    const i = rest.findIndex((a) => !a.startsWith('-'));
    if (i < 0) return undefined;
    return { argv, program: path.basename(rest[i]) };
  }
  return { argv, program: path.basename(argv[0]) };
}

function isGoBinary(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > GO_SCAN_LIMIT) return false;
    return fs.readFileSync(file).includes(GO_BUILDINFO);
  } catch {
    return false;
  }
}

/** The first `name` on `PATH` (the host's), or undefined. */
export function findOnPath(name: string, pathVar = process.env.PATH ?? ''): string | undefined {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of pathVar.split(path.delimiter).filter(Boolean))
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        // not here
      }
    }
  return undefined;
}

/**
 * The debug start of a sidecar whose checked, absolute command is `command` with `args`
 * (`runtime.args`), listening on `port`. `dlv` is Delve's path when found (findOnPath).
 */
export function debugPlan(command: string, args: readonly string[], port: number, dlv?: string): DebugPlan {
  const attach = { host: DEBUG_HOST, port };
  const listen = `${DEBUG_HOST}:${port}`;
  let interp: string[];
  let program: string;
  let rest: readonly string[];
  const base = path.basename(command);
  if (NODE.test(base) || PYTHON.test(base)) {
    interp = [command];
    program = base;
    rest = args;
  } else {
    const bang = shebang(command);
    if (bang && (NODE.test(bang.program) || PYTHON.test(bang.program))) {
      interp = bang.argv;
      program = bang.program;
      rest = [command, ...args];
    } else if (isGoBinary(command)) {
      if (!dlv)
        return {
          ok: false,
          runtime: 'go',
          message: `${base} is a Go program: debugging it needs ${INSTALL_DLV}`,
        };
      return {
        ok: true,
        runtime: 'go',
        // --log-dest=2: Delve's "API server listening" line goes to stderr, never into the protocol.
        launch: {
          command: dlv,
          args: ['exec', command, '--headless', `--listen=${listen}`, '--api-version=2', '--log-dest=2', '--', ...args],
        },
        attach,
        install: INSTALL_DLV,
      };
    } else {
      return {
        ok: false,
        message: `${base} is not a Node or Python program (by its name or its #! line) nor a Go binary, so no debugger is known for it`,
      };
    }
  }
  const [first, ...more] = interp;
  if (NODE.test(program))
    return {
      ok: true,
      runtime: 'node',
      launch: { command: first, args: [...more, `--inspect-brk=${listen}`, ...rest] },
      attach,
      install: 'Node.js',
    };
  return {
    ok: true,
    runtime: 'python',
    launch: { command: first, args: [...more, '-m', 'debugpy', '--listen', listen, '--wait-for-client', ...rest] },
    attach,
    probe: { command: first, args: [...more, '-c', 'import debugpy'] },
    install: INSTALL_DEBUGPY,
  };
}

/** A loopback port free now (the OS picks it; it is closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, DEBUG_HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves true once something accepts connections on `port`, false after `timeoutMs`. */
export async function waitForListener(port: number, timeoutMs: number, gone?: () => boolean): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !gone?.()) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: DEBUG_HOST, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
