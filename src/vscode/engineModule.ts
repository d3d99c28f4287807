// The engine's own bundle (dist/engine.js), required when the first folder starts: activation
// parses none of the engine (src/engine.ts says what is in it).
import { lazyModule } from './lazyModule';

export const engineModule = lazyModule<typeof import('../engine')>('engine.js', 'engine');
