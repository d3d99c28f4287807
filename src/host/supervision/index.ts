export { RestartPolicy } from './restartPolicy';
export type { RestartPolicyOptions, RestartDecision } from './restartPolicy';
export { toDisplayState, summarize, formatUptime, fullTrustLines } from './summary';
export { pluginAccessibleName, statusBarAccessibleName } from './accessibleNames';
export type { DisplayState, EngineState, PluginRow, OverallState, Summary } from './summary';
