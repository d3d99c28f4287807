// Environment variables through which a manifest's `runtime.env` can make the sidecar's runtime (or
// anything it starts) load code the command line does not show: preloaded libraries, module search
// paths, interpreter start-up files and options. The FULL TRUST block flags them (issue 25).
// Written once here; a name is matched exactly, a prefix entry ends with '*'.
const CODE_LOADING: readonly string[] = [
  // Node.js
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  // dynamic linker (Linux, macOS)
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_*',
  // Python, Perl, Ruby, Lua
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PYTHONUSERBASE',
  'PERL5LIB',
  'PERL5OPT',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'LUA_PATH',
  'LUA_CPATH',
  // JVM
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  // shells started by the sidecar, and which programs a bare name finds
  'BASH_ENV',
  'ENV',
  'PATH',
  // glibc character-set modules
  'GCONV_PATH',
];

/** Whether `name` is a variable that can load code (case-sensitive, as the platforms treat them). */
export function loadsCode(name: string): boolean {
  return CODE_LOADING.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry));
}
