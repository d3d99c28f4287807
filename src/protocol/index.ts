// The Reasonix Extension Protocol contracts (v1 and v2) as code. No I/O.
export * from './generated/contract';
export * from './generated/manifest';
export type * from './generated/types';
export * from './errors';
export * from './validate';
export * from './contract';
export { featuresOf, FEATURES, MANIFEST_RULES, type ManifestRules } from './features';
export * from './surfaces';
