// The bridge program an agent hook runs (bundled as dist/hook.js, started by the agent plugin's
// launcher with the runtime VS Code already has): `hook.js <Event>`, hook input on stdin, the
// answer on stdout. Always exits 0; notes go to stderr. Imports only the small bridge modules.
import { runBridge } from './host/hooks';
import { hooksDirs, MAX_REQUEST_BYTES } from './host/endpoint';
import { budgetFor } from './host/hooks';

// The agent's clock starts at spawn: count the runtime's own start-up against the budget too.
const startedAt = Date.now() - Math.round(process.uptime() * 1000);
const event = process.argv[2];

/** All of stdin, capped; resolves early (with what it has) when the budget runs out. */
function readStdin(limit: number, waitMs: number): Promise<{ text: string; problem?: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (problem?: string) => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), problem });
    };
    const timer = setTimeout(() => finish('stdin was not closed in time'), waitMs);
    process.stdin.on('data', (d: Buffer) => {
      size += d.length;
      if (size > limit) return finish(`stdin is larger than ${limit} bytes`);
      chunks.push(d);
    });
    process.stdin.on('end', () => finish());
    process.stdin.on('error', (err) => finish(`stdin: ${err.message}`));
  });
}

function exit(stdout: string, notes: string[]): void {
  for (const n of notes) process.stderr.write(`reasonix-hook: ${n}\n`);
  // Exit only once stdout is flushed (a pipe may take a 1 MiB answer in several writes).
  if (stdout) process.stdout.write(stdout, () => process.exit(0));
  else process.exit(0);
}

async function main(): Promise<void> {
  const budget = budgetFor(event ?? '');
  const left = startedAt + budget - Date.now();
  const hardStop = setTimeout(() => exit('', ['the hook budget ran out; no decision']), left);
  hardStop.unref();
  const input = await readStdin(MAX_REQUEST_BYTES, left - 200);
  // An input that cannot be read whole is still answered for: the window serving this working
  // directory refuses for its required extensions and asks for its optional ones (issue 38 item 8).
  const stdin = input.problem ? { problem: input.problem } : input.text;
  const r = await runBridge(event, stdin, { dirs: hooksDirs(), startedAt, fallbackCwd: process.cwd() });
  exit(r.stdout, r.notes);
}

main().catch((err: Error) => exit('', [`${err.message}; no decision`]));
