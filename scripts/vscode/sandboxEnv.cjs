// The one sandbox environment for a code-server run (the UI tests' harness, test/e2e/support/
// codeServer.ts, and the demo's launcher, scripts/code-server.mjs): HOME and the XDG folders inside
// the sandbox, created 0700, so a run writes nothing in the user's home; VSCODE_* / ELECTRON_*
// variables of a surrounding VS Code dropped, since they would confuse the server. HOME is
// `server-home`, not `home`: the demo keeps its Reasonix home at `<sandbox>/home`. Plain CommonJS
// with Node built-ins only: the demo runs before `npm ci` may have, and the compiled (CommonJS)
// test harness requires it by path.
'use strict';
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * @param {string} sandbox the run's private folder
 * @param {Record<string, string>} [extra] variables set on top (e.g. REASONIX_HOME)
 * @returns {NodeJS.ProcessEnv}
 */
function sandboxEnv(sandbox, extra = {}) {
  const home = join(sandbox, 'server-home');
  const dirs = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_RUNTIME_DIR: join(sandbox, 'runtime'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true, mode: 0o700 });
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VSCODE_|ELECTRON_)/.test(k)));
  return { ...base, ...dirs, ...extra };
}

module.exports = { sandboxEnv };
