// Why a runtime generation could not be built; the message always names the plugin(s).
import type { FailureInfo } from './ports';

export type GenerationErrorKind =
  | 'slot_collision'
  | 'duplicate_plugin'
  | 'required_failed'
  | 'strategy_failed'
  | 'cancelled'
  | 'session_stopped'
  /** Two active plugins provide what a third requires (HOST_SPEC_V2 §11.3). */
  | 'duplicate_provider'
  /** Required dependencies form a cycle (§11.5). */
  | 'dependency_cycle'
  /** One plugin was asked to start while what it requires is missing or not running. */
  | 'dependency_unsatisfied';

/**
 * The name Reasonix reports for a kind (HOST_SPEC_V2 §9): a protocol reason, or the graph-level
 * `duplicate_provider`. A required plugin that failed after its dependencies were satisfied is
 * `activation_failed`. Kinds without an entry have no Reasonix name.
 */
const REASONIX_NAMES: Partial<Record<GenerationErrorKind, string>> = {
  required_failed: 'activation_failed',
  duplicate_provider: 'duplicate_provider',
  dependency_cycle: 'dependency_cycle',
  dependency_unsatisfied: 'dependency_unsatisfied',
};

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

  /** The reason Reasonix names this failure with, when it has one (see REASONIX_NAMES). */
  get reason(): string | undefined {
    return REASONIX_NAMES[this.kind];
  }
}
