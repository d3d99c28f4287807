// Public surface of hook-point dispatch.
export * from './points';
export * from './payloads';
export * from './ports';
export * from './slots';
export * from './dispatch';
export type { Answer, Failure } from './ask';
export { interceptClientFor } from './sidecarAdapter';
