#!/usr/bin/env node
// Makes a private Reasonix home that "installs" the sample extensions, the way Reasonix records
// installed plugins: <home>/plugin-packages.json lists each package root (here: the examples in
// this repository, linked in place), its version and whether it is enabled. Optionally also
// writes a small demo workspace to open in VS Code.
//
//   node scripts/prepare-home.mjs <homeDir> [--workspace <dir>] [--plugin <name-or-dir>]...
//   REASONIX_HOME=<homeDir> code <dir>
//
// Running it again changes nothing that is already right; records for other plugins in an
// existing plugin-packages.json are kept, and demo files you edited are left alone.
import { promises as fs, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES = path.join(REPO, 'examples');
export const DEFAULT_PLUGINS = ['showcase', 'hello'];
const PACKAGES_FILE = 'plugin-packages.json';
const ROOT_VAR = '${REASONIX_PLUGIN_ROOT}';

/** A plugin argument is an example name (examples/<name>) or a path to a package folder. */
function pluginRoot(spec) {
  return spec.includes('/') || spec.includes('\\') || path.isAbsolute(spec)
    ? path.resolve(spec)
    : path.join(EXAMPLES, spec);
}

async function readJson(file) {
  return JSON.parse(await fs.readFile(file, 'utf8'));
}

/** The record Reasonix keeps for an installed package whose manifest is at <root>. */
async function recordFor(root, say) {
  const manifest = await readJson(path.join(root, 'reasonix-plugin.json'));
  if (typeof manifest.name !== 'string' || !manifest.name) throw new Error(`${root}: reasonix-plugin.json has no name`);
  // A checkout or an unzip can lose the executable bit; the host spawns the command directly.
  const command = manifest.runtime && manifest.runtime.command;
  if (process.platform !== 'win32' && typeof command === 'string' && command.startsWith(ROOT_VAR)) {
    const bin = root + command.slice(ROOT_VAR.length);
    try {
      await fs.access(bin, fsc.X_OK);
    } catch {
      await fs.chmod(bin, 0o755);
      say(`made ${path.relative(REPO, bin)} executable`);
    }
  }
  return {
    name: manifest.name,
    root,
    version: String(manifest.version ?? '0.0.0'),
    manifestKind: 'reasonix',
    enabled: true,
  };
}

async function writeIfChanged(file, text) {
  let old;
  try {
    old = await fs.readFile(file, 'utf8');
  } catch {
    old = undefined;
  }
  if (old === text) return false;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return true;
}

const WORKSPACE_FILES = {
  'README.md': `# Reasonix demo workspace

This folder is a playground for the sample Reasonix extensions (examples/showcase and
examples/hello). VS Code must see the Reasonix home that lists them:

    REASONIX_HOME=<the home you prepared> code <this folder>

Things to try:

1. Open the **Reasonix** view in the activity bar. The *showcase* extension publishes a status
   line ("Indexing… 40%" then "Indexed N files"), a **Showcase** card with buttons, a
   **Session** card, a **Recent changes** card, a **Notes** form and a **Your notes** card.
2. Run **Reasonix: Run Extension Action…** from the Command Palette and pick
   \`/showcase:pick-theme\` (a select prompt), \`/showcase:reset-notes\` (a confirmation),
   \`/showcase:greet\` or \`/hello:say-hello\`. The card buttons run the same actions.
3. Edit and save any file here (for example \`src/greeting.js\`), create one, or delete one: the
   **Recent changes** card lists the paths the host reported.
4. Fill in the **Notes** form and submit it: the **Your notes** card shows what you sent.
5. A Reasonix session (when the home also lists examples/companion, as \`npm run demo\`'s does):
   in the **Extensions** view's **…** menu choose **Open Reasonix Session**. Reasonix runs the
   *companion* sample; its card, status and notification appear under **<folder> · Reasonix
   session**. Its **Pick a color…** button asks in a QuickPick; \`@reasonix hello\` in the Chat
   view is answered by its Companion Echo model.
`,
  'src/greeting.js': `// Edit me and save: the showcase's "Recent changes" card lists this file.
function greet(name) {
  return \`Hello, \${name}!\`;
}

module.exports = { greet };
`,
  'src/numbers.js': `// Another file to edit.
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

module.exports = { sum };
`,
  'notes/ideas.md': `# Ideas

- Try the Notes form in the Reasonix view.
- Rename this file and watch the Recent changes card.
`,
};

/** Creates the demo files that are missing; files that exist (maybe edited) are kept. */
async function prepareWorkspace(dir, say) {
  const created = [];
  for (const [rel, text] of Object.entries(WORKSPACE_FILES)) {
    const file = path.join(dir, rel);
    try {
      await fs.access(file);
      continue;
    } catch {
      // missing: write it
    }
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
    created.push(rel);
  }
  say(created.length ? `workspace ${dir}: created ${created.join(', ')}` : `workspace ${dir}: already prepared`);
  return { dir, created };
}

/**
 * Writes <home>/plugin-packages.json listing the given plugins (default: every sample) and, when
 * `workspace` is set, the demo workspace. Returns what it did; `log` receives one line per step.
 */
export async function prepareHome({ home, workspace, plugins = DEFAULT_PLUGINS, log = () => {} }) {
  if (!home) throw new Error('prepareHome: home is required');
  const homeDir = path.resolve(home);
  await fs.mkdir(homeDir, { recursive: true });
  const records = [];
  for (const spec of plugins) records.push(await recordFor(pluginRoot(spec), log));

  // Keep records of other plugins a real Reasonix may have written; ours replace same-named ones.
  const file = path.join(homeDir, PACKAGES_FILE);
  let existing = [];
  try {
    const doc = await readJson(file);
    if (Array.isArray(doc.plugins)) existing = doc.plugins;
  } catch {
    existing = [];
  }
  const ours = new Set(records.map((r) => r.name));
  const merged = [...existing.filter((r) => !(r && ours.has(r.name))), ...records].sort((a, b) =>
    String(a.name).localeCompare(String(b.name)),
  );
  const changed = await writeIfChanged(file, JSON.stringify({ version: 1, plugins: merged }, null, 2) + '\n');
  const names = records.map((r) => `${r.name} ${r.version}`).join(', ');
  log(`${changed ? 'wrote' : 'unchanged'} ${file} (${names})`);

  const result = { home: homeDir, file, changed, plugins: records };
  if (workspace) result.workspace = await prepareWorkspace(path.resolve(workspace), log);
  return result;
}

function parseArgs(argv) {
  const out = { plugins: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--workspace') out.workspace = argv[++i];
    else if (a === '--plugin') out.plugins.push(argv[++i]);
    else if (a === '-h' || a === '--help') out.help = true;
    else if (!out.home && !a.startsWith('--')) out.home = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (out.workspace === undefined && argv.includes('--workspace')) throw new Error('--workspace needs a directory');
  return out;
}

const USAGE = 'usage: node scripts/prepare-home.mjs <homeDir> [--workspace <dir>] [--plugin <name-or-dir>]...';

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const args = parseArgs(process.argv.slice(2));
    if (args.help || !args.home) {
      console.log(USAGE);
      process.exit(args.help ? 0 : 2);
    }
    await prepareHome({
      home: args.home,
      workspace: args.workspace,
      plugins: args.plugins.length ? args.plugins : DEFAULT_PLUGINS,
      log: (line) => console.log(line),
    });
    console.log(
      `next: REASONIX_HOME=${path.resolve(args.home)} code ${args.workspace ? path.resolve(args.workspace) : '<folder>'}`,
    );
  } catch (err) {
    console.error(`prepare-home: ${err.message}`);
    console.error(USAGE);
    process.exit(1);
  }
}
