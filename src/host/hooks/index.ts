// The agent-hooks bridge: VS Code's (and Claude-Code-style) agent hooks → Reasonix hook points.
// The window endpoint they travel on is its own room (src/host/endpoint).
export * from './events';
export * from './mapping';
export * from './request';
export * from './bridge';
export * from './window';
