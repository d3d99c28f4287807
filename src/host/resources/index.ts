export {
  ChangeBatcher,
  toWorkspaceRelative,
  splitBatches,
  ALWAYS_EXCLUDED_SEGMENTS,
  DEFAULT_COALESCE_MS,
  DEFAULT_MAX_WAIT_MS,
  MAX_PATHS_PER_MESSAGE,
} from './batcher';
export type { ChangeBatcherOptions, BatchTimers } from './batcher';
export { globToRegExp, compileExcludes } from './glob';
