// Starts code-server (the real VS Code workbench + a real Node extension host) in a private
// sandbox folder: its own XDG folders, HOME, config, user-data and extensions folders, so a
// run leaves nothing in the user's home and every run starts from a fresh profile.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnGroup, type GroupProcess } from './processes';
import { repoRoot, type Provisioned } from './paths';
import { waitFor } from '../../support/wait';

export interface CodeServerOptions {
  provisioned: Provisioned;
  /** Private folder for this run; created if missing. */
  sandbox: string;
  /** Extra environment for code-server, which passes it on to the extension host (REASONIX_HOME). */
  env?: Record<string, string>;
  /** Enables window.codeAutomationExit and the extensionTestsPath payload (in-host tests). */
  smokeTestDriver?: boolean;
  /** Reuse an extensions folder (e.g. one a .vsix was installed into); default: fresh, empty. */
  extensionsDir?: string;
  /** User settings on top of the quiet defaults (e.g. `workbench.colorTheme`). */
  settings?: Record<string, unknown>;
  /**
   * Machine-scoped settings (e.g. `reasonix.path`): code-server's window is a remote one, where
   * VS Code ignores a machine-scoped value in the user settings and reads the server's Machine settings.
   */
  machineSettings?: Record<string, unknown>;
  /**
   * VS Code's display language (`--locale`, e.g. `zh-cn`); default English. See `registerLocale`:
   * code-server 4.139.1 takes `--locale` before argv.json, the cookie and Accept-Language, but
   * resolves it only for a language listed in the user data's languagepacks.json.
   */
  locale?: string;
  /** The profile's keybindings.json entries (`{key, command, args?}`), e.g. a command run with fixed arguments. */
  keybindings?: Keybinding[];
  readyTimeoutMs?: number;
}

export interface Keybinding {
  key: string;
  command: string;
  args?: unknown;
  when?: string;
}

export interface CodeServer {
  readonly url: string;
  readonly authority: string;
  readonly logFile: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** URL that opens a folder, or a multi-root .code-workspace file, with an optional payload. */
  workbenchUrl(workspace: string, payload?: [string, string][]): string;
  /** vscode-remote URI of a server-side path (what the payload's paths must be). */
  remoteUri(absPath: string): string;
  stop(): Promise<void>;
}

/** HOME and XDG folders inside the sandbox: the one copy, scripts/vscode/sandboxEnv.cjs (the demo uses it too). */
export const sandboxEnv: (sandbox: string, extra?: Record<string, string>) => NodeJS.ProcessEnv =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(join(repoRoot, 'scripts', 'vscode', 'sandboxEnv.cjs')).sandboxEnv;

/** Installs a .vsix into an extensions folder with code-server's own CLI. */
export async function installVsix(
  provisioned: Provisioned,
  sandbox: string,
  vsix: string,
  extensionsDir: string,
): Promise<void> {
  const env = sandboxEnv(sandbox);
  const dataDir = join(sandbox, 'install-user-data');
  const child = spawn(
    provisioned.node,
    [
      provisioned.codeServerEntry,
      '--install-extension',
      vsix,
      '--force',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      dataDir,
      '--config',
      writeConfig(sandbox),
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !/successfully installed/i.test(out))
    throw new Error(`installing ${vsix} failed (exit ${code}): ${out.trim()}`);
}

/** Whether this code-server's CLI has an option (read from its option table, out/node/cli.js). */
function cliOptions(entry: string): (option: string) => boolean {
  const table = readFileSync(join(dirname(entry), 'cli.js'), 'utf8');
  return (option) => new RegExp(`^\\s+"?${option}"?: \\{`, 'm').test(table);
}

function writeConfig(sandbox: string): string {
  const file = join(sandbox, 'config.yaml');
  writeFileSync(file, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  return file;
}

/**
 * Makes `locale` a display language code-server resolves. Its web client server
 * (lib/vscode/out/server-main.js, 4.139.1) reads <user-data>/languagepacks.json and falls back to
 * English for a language not listed there, so the browser and the extension host it starts would
 * say `en`. We list a language pack with no translations of VS Code's own (its text stays
 * English; nothing is downloaded); the extension host then runs in `locale` and loads an
 * extension's package.nls.<locale>.json and l10n/bundle.l10n.<locale>.json, which is what we test.
 * The file is only rewritten when a language pack is installed through this server, never here.
 */
function registerLocale(sandbox: string, userDataDir: string, locale: string): void {
  const core = join(sandbox, 'language-pack', 'main.i18n.json');
  mkdirSync(join(sandbox, 'language-pack'), { recursive: true });
  writeFileSync(core, JSON.stringify({ contents: {} }));
  const pack = {
    hash: `reasonix-test-${locale}`,
    label: locale,
    // The language picker reads extensions[0]; no such extension is installed or needed.
    extensions: [{ extensionIdentifier: { id: `reasonix-test.language-pack-${locale}` }, version: '0.0.0' }],
    translations: { vscode: core },
  };
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify({ [locale]: pack }, null, 2));
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const { sandbox } = opts;
  mkdirSync(sandbox, { recursive: true });
  const userDataDir = join(sandbox, 'user-data');
  const extensionsDir = opts.extensionsDir ?? join(sandbox, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  // Quiet, deterministic workbench: no welcome page, no update/telemetry chatter, no tips.
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'workbench.tips.enabled': false,
        'security.workspace.trust.enabled': false,
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        ...opts.settings,
      },
      null,
      2,
    ),
  );
  if (opts.machineSettings) {
    mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
    writeFileSync(join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(opts.machineSettings, null, 2));
  }
  if (opts.keybindings)
    writeFileSync(join(userDataDir, 'User', 'keybindings.json'), JSON.stringify(opts.keybindings, null, 2));
  const logFile = join(sandbox, 'code-server.log');
  const knows = cliOptions(opts.provisioned.codeServerEntry);
  const args = [
    opts.provisioned.codeServerEntry,
    // Port 0: the kernel picks a free port and we read it from the log, so parallel runs never collide.
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    // Each page load starts a new extension host; without this the old ones live for hours (code-server
    // 4.96.4 lacks the option: there they live until stop() ends the process group).
    ...(knows('reconnection-grace-time') ? ['--reconnection-grace-time', '5'] : []),
    '--config',
    writeConfig(sandbox),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  // code-server 4.96.4 has no --vscode-option (nor a way to pass the driver on); its workbench calls
  // window.codeAutomationExit after the tests without it.
  if (opts.smokeTestDriver && knows('vscode-option')) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (opts.locale && !opts.locale.startsWith('en')) {
    registerLocale(sandbox, userDataDir, opts.locale);
    args.push('--locale', opts.locale);
  }
  const proc: GroupProcess = spawnGroup(opts.provisioned.node, args, {
    env: sandboxEnv(sandbox, opts.env),
    cwd: sandbox,
    logFile,
  });
  let exitedEarly = false;
  void proc.exited.then(() => (exitedEarly = true));
  try {
    const url = await waitFor(
      () => {
        if (exitedEarly) throw new Error(`code-server exited during start-up; see ${logFile}`);
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(logFile, 'utf8'));
        return m?.[1];
      },
      { timeoutMs: opts.readyTimeoutMs ?? 60_000, what: 'code-server to listen' },
    );
    await waitFor(
      async () =>
        (await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )) || undefined,
      { timeoutMs: 30_000, what: `${url}/healthz` },
    );
    const authority = url.replace(/^http:\/\//, '');
    const remoteUri = (p: string) => `vscode-remote://${authority}${p}`;
    return {
      url,
      authority,
      logFile,
      userDataDir,
      extensionsDir,
      remoteUri,
      workbenchUrl(workspace, payload) {
        const key = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
        let u = `${url}/?${key}=${encodeURIComponent(workspace)}`;
        if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
        return u;
      },
      stop: () => proc.stop(),
    };
  } catch (e) {
    await proc.stop();
    throw e;
  }
}
