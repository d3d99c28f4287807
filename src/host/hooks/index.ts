// The agent-hooks bridge: VS Code's (and Claude-Code-style) agent hooks → Reasonix hook points.
export * from './events';
export * from './mapping';
export * from './endpoint';
export * from './registry';
export * from './bridge';
export * from './window';
