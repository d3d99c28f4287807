// `reasonix-host`: the engine without VS Code, for extension authors and CI.
import { checkCommand, CHECK_HELP } from './cli/check';
import { runCommand, RUN_HELP } from './cli/run';
import { fireCommand, FIRE_HELP } from './cli/fire';
import { hookCommand, HOOK_HELP } from './cli/hook';
import { modelsCommand, MODELS_HELP, streamCommand, STREAM_HELP } from './cli/models';
import { toolCommand, TOOL_HELP, toolsCommand, TOOLS_HELP } from './cli/tools';
import { mcpCommand, MCP_HELP } from './cli/mcp';
import { replayCommand, REPLAY_HELP } from './cli/replay';
import { UsageError } from './cli/args';

const HELP = `Usage: reasonix-host <command> [options]

A headless host for Reasonix extensions (Reasonix Extension Protocol v2 and v1).

Commands:
  check <pluginDir>        start a plugin, complete the handshake, shut it down, report conformance
  run <pluginDir>...       keep plugins running, print what they publish, forward file changes
  fire <event>             dispatch one hook point exactly as the host would, print the outcome
  models                   list the models plugins host
  stream                   open a provider stream and print its chunks in order
  tools                    list the tools plugins serve (protocol v2)
  tool <plugin> <name>     call one tool through the interceptor chain, print its result
  mcp                      serve the extensions' tools to any MCP client on stdio
  hook <Event>             answer one agent hook (Claude-Code-style JSON on stdin) via Reasonix
  replay <pluginDir> <trace.ndjson>
                           replay a protocol trace (Copy as NDJSON) against the sidecar, compare answers

Run \`reasonix-host <command> --help\` for a command's options.`;

const commands: Record<string, { run: (argv: string[]) => Promise<number>; help: string }> = {
  check: { run: checkCommand, help: CHECK_HELP },
  run: { run: runCommand, help: RUN_HELP },
  fire: { run: fireCommand, help: FIRE_HELP },
  models: { run: modelsCommand, help: MODELS_HELP },
  stream: { run: streamCommand, help: STREAM_HELP },
  tools: { run: toolsCommand, help: TOOLS_HELP },
  tool: { run: toolCommand, help: TOOL_HELP },
  mcp: { run: mcpCommand, help: MCP_HELP },
  hook: { run: hookCommand, help: HOOK_HELP },
  replay: { run: replayCommand, help: REPLAY_HELP },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    // Asked for: help on stdout, exit 0. No command at all is a usage error: help on stderr, exit 2.
    if (name) console.log(HELP);
    else process.stderr.write(`${HELP}\n`);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}" (try reasonix-host --help)`);
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`reasonix-host: ${err.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`reasonix-host: ${(err as Error).message ?? String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
