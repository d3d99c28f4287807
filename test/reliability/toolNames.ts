// Part of `npm run fuzz` (issue 45 item 1): random folders of plugins whose ids and tool names mix
// `__`, `.`, `-` and lengths near 64, put through the folder's catalog rule. Whatever the mix, the
// listing must hold only distinct names that match ^[A-Za-z0-9_-]{1,64}$, every listed name must
// resolve to exactly the tool it lists, and no tool whose name another shares (or that is invalid)
// may resolve to any client: no extension can shadow another's tool.
import {
  listTools,
  MODEL_FACING_NAME,
  modelFacingName,
  resolveTool,
  withheldTools,
  type ToolClient,
} from '../../src/host/tools';
import { Random } from './random';

export interface ToolNameFigures {
  folders: number;
  toolsTried: number;
  withheld: number;
  /** Listed twice, listed invalid, resolved to another tool, or a withheld one resolved: must be 0. */
  shadowed: number;
}

const PARTS = ['a', 'x', 'y', 'b__c', 'x__y', 'a__x', '_', '__', '-', 'tool', 'dot.ted', 'p'.repeat(30)];

function word(rng: Random, plugin: boolean): string {
  let w = '';
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) w += (i ? rng.pick(['', '_', '__', '-']) : '') + rng.pick(PARTS);
  // A plugin id starts with a letter or digit and holds no more than 64 characters (discover.ts).
  if (plugin) w = ('q' + w).slice(0, 64);
  else w = w.replace(/\./g, '_').slice(0, 64); // a tool name matches ^[A-Za-z0-9_-]{1,64}$ (manifest rule)
  return w;
}

function client(pluginId: string, tools: string[], running: boolean): ToolClient {
  return {
    pluginId,
    state: running ? 'running' : 'crashed',
    tools: tools.map((name) => ({ name, description: name, inputSchema: { type: 'object' }, readOnly: false })),
    request: () => Promise.reject(new Error('not called')),
    onStateChange: () => ({ dispose() {} }),
  };
}

export function fuzzToolNames(opts: { seed: number; folders: number }): ToolNameFigures {
  const rng = new Random(opts.seed);
  const f: ToolNameFigures = { folders: 0, toolsTried: 0, withheld: 0, shadowed: 0 };
  for (let i = 0; i < opts.folders; i++) {
    const ids = new Set<string>();
    const n = rng.int(1, 5);
    while (ids.size < n) ids.add(word(rng, true));
    const clients = [...ids].map((id) => {
      const names = new Set<string>();
      const k = rng.int(1, 4);
      while (names.size < k) names.add(word(rng, false));
      f.toolsTried += names.size;
      return client(id, [...names], rng.chance(0.85));
    });
    f.folders++;
    const listed = listTools(clients);
    const withheld = withheldTools(clients);
    f.withheld += withheld.length;
    const seen = new Set<string>();
    for (const t of listed) {
      if (seen.has(t.modelName) || !MODEL_FACING_NAME.test(t.modelName)) f.shadowed++;
      seen.add(t.modelName);
      const r = resolveTool(clients, t.modelName);
      if (!r || 'withheld' in r || r.tool.pluginId !== t.pluginId || r.tool.name !== t.name) f.shadowed++;
    }
    // Every name two tools share, and every invalid one, is withheld for all of them.
    const byName = new Map<string, number>();
    for (const c of clients)
      for (const t of c.tools) {
        const m = modelFacingName(c.pluginId, t.name);
        byName.set(m, (byName.get(m) ?? 0) + 1);
      }
    for (const [m, count] of byName) {
      if (count < 2 && MODEL_FACING_NAME.test(m)) continue;
      if (listed.some((t) => t.modelName === m)) f.shadowed++;
      const r = resolveTool(clients, m);
      if (!r || !('withheld' in r)) f.shadowed++;
    }
  }
  return f;
}
