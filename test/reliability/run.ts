// `npm run fuzz`: the reliability suite the project keeps (issue 12 §8). Prints one JSON object:
// frames tried, host crashes, wrong results, kills, orphans, leaks — every failure figure is
// expected to be 0, and the command exits 1 when one is not. Bounded: about two to three minutes
// on two cores. FUZZ_SEED replays a run; FUZZ_CHUNKINGS / FUZZ_KILLS / FUZZ_REAL_CALLS resize it.
import * as path from 'node:path';
import { fuzzAnswers } from './answers';
import { chaos } from './chaos';
import { escapes } from './escapes';
import { fuzzFraming, fuzzRealSidecar } from './fuzz';
import { fuzzMcpWire } from './mcpWire';
import { fuzzToolNames } from './toolNames';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures');

function handles(): number {
  // Pipes and child processes the host still holds: after every sidecar stopped, none may remain.
  return process.getActiveResourcesInfo().filter((r) => r === 'PipeWrap' || r === 'ProcessWrap').length;
}

async function main(): Promise<number> {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
  const chunkings = Number(process.env.FUZZ_CHUNKINGS ?? 100_000);
  const realCalls = Number(process.env.FUZZ_REAL_CALLS ?? 1_000);
  const kills = Number(process.env.FUZZ_KILLS ?? 80);
  let crashes = 0;
  process.on('uncaughtException', () => crashes++);
  process.on('unhandledRejection', () => crashes++);
  const started = performance.now();
  // The runner's own stdout/stderr are pipe handles too once first touched (when piped): create
  // them before counting, so only what the host left counts as a leak.
  void process.stdout.writable;
  void process.stderr.writable;
  const handlesBefore = handles();
  const framing = await fuzzFraming({ seed, chunkings });
  const real = await fuzzRealSidecar({ seed, calls: realCalls, fixtures: path.join(FIXTURES, 'sidecars') });
  const killed = await chaos({ seed, kills, fixtures: FIXTURES });
  const escaped = await escapes({
    fixtures: path.join(FIXTURES, 'sidecars'),
    runs: Number(process.env.FUZZ_ESCAPES ?? 4),
  });
  // Issue 45 item 2: answers to a sidecar's requests are never lost past the write queue.
  const answers = await fuzzAnswers({
    seed,
    floods: Number(process.env.FUZZ_ANSWER_FLOODS ?? 6),
    fixtures: path.join(FIXTURES, 'sidecars'),
  });
  // Issue 45 items 1 and 3: the tool-name rule and the MCP server's wire.
  const toolNames = fuzzToolNames({ seed, folders: Number(process.env.FUZZ_TOOL_FOLDERS ?? 20_000) });
  const mcpWire = await fuzzMcpWire({
    seed,
    lines: Number(process.env.FUZZ_MCP_LINES ?? 3_000),
    closedStdoutRuns: Number(process.env.FUZZ_MCP_CLOSED ?? 6),
  });
  await new Promise((r) => setTimeout(r, 200));
  const leaks = Math.max(0, handles() - handlesBefore);
  const figures = {
    seed,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    framesTried: framing.framesTried + real.framesTried,
    chunkings: framing.chunkings + real.chunkings,
    junkLines: framing.junkLines + real.junkLines,
    oversizeFrames: framing.oversizeFrames,
    hostCrashes: framing.hostCrashes + real.hostCrashes + crashes,
    wrongResults: framing.wrongResults + real.wrongResults,
    kills: killed.kills,
    killsByPhase: killed.byPhase,
    callsSettledAfterKills: killed.callsSettled,
    unsettledCalls: killed.unsettled,
    orphans: killed.orphans,
    leaks,
    escapes: escaped,
    answers,
    toolNames,
    mcpWire,
  };
  console.log(JSON.stringify(figures, null, 2));
  const bad =
    figures.hostCrashes +
    figures.wrongResults +
    figures.unsettledCalls +
    figures.orphans +
    figures.leaks +
    escaped.processesLeft +
    escaped.hangs +
    answers.lostAnswers +
    answers.errorAnswers +
    answers.connectionsFailed +
    toolNames.shadowed +
    mcpWire.wrongAnswers +
    mcpWire.serverFailures +
    mcpWire.closedStdoutFailures;
  return bad === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
