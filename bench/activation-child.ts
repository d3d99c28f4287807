// Child process of the activation figure's fallback (only when code-server is not provisioned):
// loads the minified dist/extension.js against a stub `vscode` module in plain Node, calls
// activate() once and prints one JSON line, then exits before the deferred session start
// (setImmediate) can run. Not a substitute for a real VS Code run: the
// stub's calls cost next to nothing, so this is the extension's own work only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const logged: string[] = [];

type Stub = ((...args: unknown[]) => unknown) & Record<string | symbol, unknown>;

/** Any property is another stub (or what was assigned to it), any call or `new` returns a stub; iterables are empty. */
function stub(overrides: Record<string, unknown> = {}): Stub {
  const assigned = new Map<string | symbol, unknown>();
  const target = function () {
    return stub();
  } as unknown as Stub;
  return new Proxy(target, {
    get(_t, prop) {
      if (assigned.has(prop)) return assigned.get(prop);
      if (typeof prop === 'string' && prop in overrides) return overrides[prop];
      if (prop === Symbol.iterator) return function* () {};
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === 'then') return undefined; // never look like a promise
      const value = stub();
      assigned.set(prop, value);
      return value;
    },
    set(_t, prop, value) {
      assigned.set(prop, value);
      return true;
    },
    construct() {
      return stub() as object;
    },
  });
}

const channel = stub({
  debug: (m: string) => logged.push(m),
  info: (m: string) => logged.push(m),
  trace: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  logLevel: 2,
});
const memento = () => stub({ get: (_k: string, d?: unknown) => d, update: () => Promise.resolve(), keys: () => [] });
const members: Record<string, unknown> = {
  window: stub({ createOutputChannel: () => channel }),
  workspace: stub({
    isTrusted: false,
    workspaceFolders: undefined,
    getConfiguration: () => stub({ get: (_k: string, d?: unknown) => d }),
  }),
};
// The bundle copies the module's own keys (esbuild's ESM interop), so they must be listed: every
// name the API declares, taken from @types/vscode.
const declared = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8').matchAll(
  /^\s*export (?:namespace|class|enum|const|function|let) (\w+)/gm,
);
for (const [, name] of declared) if (!(name in members)) members[name] = stub();
const vscodeStub = new Proxy(members, { get: (t, p) => (typeof p === 'string' && p in t ? t[p] : stub()) });

const moduleApi = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const load = moduleApi._load;
moduleApi._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') return vscodeStub;
  return load.call(this, request, parent, isMain);
};

const bundle = path.resolve(__dirname, '../../dist/extension.js');
const t0 = performance.now();
const ext = createRequire(__filename)(bundle) as { activate(ctx: unknown): unknown };
const loadMs = performance.now() - t0;
const root = path.resolve(__dirname, '../..');
const context = stub({
  subscriptions: [],
  globalState: memento(),
  workspaceState: memento(),
  extensionPath: root,
  extensionMode: 3,
});
let error: string | undefined;
const t1 = performance.now();
try {
  ext.activate(context);
} catch (err) {
  error = (err as Error).message;
}
const activateMs = performance.now() - t1;
const reported = logged.map((m) => /activated in ([\d.]+) ms of own work/.exec(m)).find(Boolean);
process.stdout.write(
  JSON.stringify({ loadMs, activateMs, reportedMs: reported ? Number(reported[1]) : undefined, error }) + '\n',
);
process.exit(0);
