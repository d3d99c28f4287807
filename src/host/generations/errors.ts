// Why a runtime generation could not be built; the message always names the plugin(s).
import type { FailureInfo } from './ports';

export type GenerationErrorKind =
  'slot_collision' | 'duplicate_plugin' | 'required_failed' | 'strategy_failed' | 'cancelled' | 'session_stopped';

export class GenerationError extends Error {
  override readonly name = 'GenerationError';
  constructor(
    readonly kind: GenerationErrorKind,
    message: string,
    /** Every startup failure of the attempt (required and optional), in plugin id order. */
    readonly failures: readonly FailureInfo[] = [],
    /** The plugin that failed the build, when one did. */
    readonly pluginId?: string,
  ) {
    super(message);
  }
}
