// New Reasonix Extension… (issue 42): a v2 extension written from the templates in the repository
// (templates/scaffold/<language>/, shipped in the VSIX), never from strings in code. A template's
// `{{name}}` becomes the extension's name and `{{reasonixHost}}` the host's CLI; `_vscode` becomes
// `.vscode` (dot folders are easy to lose when packaging). The target folder must be empty or new,
// and no file is ever overwritten (each is created exclusively), so nothing of the user's is lost.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SCAFFOLD_LANGUAGES = ['node', 'python'] as const;
export type ScaffoldLanguage = (typeof SCAFFOLD_LANGUAGES)[number];

/** A plugin id the host discovers (src/host/plugins PLUGIN_ID), kept to lower case, digits and dashes for a tool's model name. */
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface ScaffoldOptions {
  /** The folder holding one template folder per language. */
  templates: string;
  language: ScaffoldLanguage;
  /** Where to write: an empty or missing folder. */
  target: string;
  name: string;
  /** The host's CLI as the generated test runs it (`reasonix-host`, or the path of its cli.js). */
  reasonixHost: string;
}

export class ScaffoldError extends Error {}

/** Why `name` cannot name an extension, or undefined. */
export function scaffoldNameProblem(name: string): string | undefined {
  return NAME.test(name)
    ? undefined
    : `"${name}" cannot name an extension: use lower-case letters, digits and dashes (at most 64), starting with a letter or digit`;
}

/** A default name from the folder's: lower case, anything else a dash. */
export function scaffoldNameFor(folder: string): string {
  const n = path
    .basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return n || 'my-extension';
}

/** Why `target` cannot receive a scaffold (it holds files, or is a file), or undefined. */
export function scaffoldTargetProblem(target: string): string | undefined {
  let entries: string[];
  try {
    if (!fs.statSync(target).isDirectory()) return `${target} is a file, not a folder`;
    entries = fs.readdirSync(target);
  } catch {
    return undefined; // missing: it is created
  }
  if (!entries.length) return undefined;
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  return `${target} is not empty (${shown}): pick an empty or new folder, nothing was written`;
}

function fill(text: string, o: ScaffoldOptions, json: boolean): string {
  const esc = (s: string) => (json ? JSON.stringify(s).slice(1, -1) : s);
  return text.replaceAll('{{name}}', esc(o.name)).replaceAll('{{reasonixHost}}', esc(o.reasonixHost));
}

/** Writes the scaffold; returns the files written, relative to the target, in order. Throws ScaffoldError. */
export function writeScaffold(o: ScaffoldOptions): string[] {
  const nameProblem = scaffoldNameProblem(o.name);
  if (nameProblem) throw new ScaffoldError(nameProblem);
  if (!SCAFFOLD_LANGUAGES.includes(o.language)) throw new ScaffoldError(`no template for ${String(o.language)}`);
  const targetProblem = scaffoldTargetProblem(o.target);
  if (targetProblem) throw new ScaffoldError(targetProblem);
  const from = path.join(o.templates, o.language);
  if (!fs.existsSync(from)) throw new ScaffoldError(`the ${o.language} template is missing (${from})`);
  fs.mkdirSync(o.target, { recursive: true });
  const written: string[] = [];
  const copy = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const name = entry.name.startsWith('_') ? `.${entry.name.slice(1)}` : entry.name;
      const source = path.join(dir, entry.name);
      const out = path.join(rel, name);
      if (entry.isDirectory()) {
        fs.mkdirSync(path.join(o.target, out), { recursive: true });
        copy(source, out);
        continue;
      }
      const text = fill(fs.readFileSync(source, 'utf8'), o, name.endsWith('.json'));
      // A file starting with #! (the sidecars) is made executable: a packaged extension (a zip)
      // does not keep the templates' modes. 'wx' never overwrites a file.
      const mode = text.startsWith('#!') ? 0o755 : 0o644;
      fs.writeFileSync(path.join(o.target, out), text, { flag: 'wx', mode });
      written.push(out.split(path.sep).join('/'));
    }
  };
  copy(from, '');
  return written;
}
