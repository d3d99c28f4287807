// Plugin discovery: what may run, and why the rest may not.
export * from './types';
export { resolveReasonixHome } from './home';
export { discoverPlugins, PACKAGES_FILE, PLUGIN_ID, type DiscoverOptions } from './discover';
export { watchPackagesFile, PACKAGES_POLL_MS } from './watchPackages';
export { decodeManifest, readManifest, MANIFEST_FILE, type ManifestOutcome } from './manifest';
export { decodeRuntimeBlock, expandCommand, PLUGIN_ROOT_VAR, type RuntimeDecode } from './runtime-block';
export { FIXED_SLOTS, isProviderRef, slotProblem } from './slots';
export { commandProblem, isShell, windowsTreeKill } from './commandRules';
export { capabilityKey } from './capabilityRefs';
export { loadsCode } from './codeLoadingEnv';
export { compareSemver, parseSemver, satisfiesRange, type SemVer } from './semver';
