// The Reasonix Extension Protocol v1 contract as code. No I/O.
export * from './generated/contract';
export type * from './generated/types';
export * from './errors';
export * from './validate';
export * from './surfaces';
