// The unit suite's mocha options (the root hook in out/test/unit/hooks.js fails a test that leaves
// a process behind). `npx mocha` runs every unit test; `npx mocha <file>…` runs only the files it
// names: a spec written here would be added to them, so it is given only when none is named.
const TAKES_A_VALUE = new Set([
  ...['--require', '-r', '--config', '--file', '--ignore', '--exclude', '--extension', '--package'],
  ...['--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--ui', '-u'],
  ...['--grep', '-g', '--fgrep', '-f', '--timeout', '-t', '--slow', '-s', '--jobs', '-j', '--retries'],
]);

/** Whether the command line names test files (or a glob, or --spec) of its own. */
function namesFiles(argv) {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--spec' || arg.startsWith('--spec=')) return true;
    if (!arg.startsWith('-')) return true;
    if (TAKES_A_VALUE.has(arg)) i++;
  }
  return false;
}

module.exports = {
  ...(namesFiles(process.argv.slice(2)) ? {} : { spec: ['out/test/unit/**/*.test.js'] }),
  timeout: 20000,
  reporter: 'spec',
  require: ['out/test/unit/hooks.js'],
};
