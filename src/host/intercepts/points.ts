// The 17 hook points and how each one is dispatched (HOST_SPEC §4.0, §4.1, §4.5).
import { INTERCEPT_EVENTS, type InterceptEvent } from '../../protocol';

export type HookPoint = InterceptEvent;
export const HOOK_POINTS: readonly HookPoint[] = INTERCEPT_EVENTS;

/**
 * chain    — every manifest interceptor in order, then the observing slot owner, then events;
 * strategy — only the owner of one slot is asked, everyone else only observes;
 * event    — nobody is asked, everyone listed only observes.
 */
export type DispatchFamily = 'chain' | 'strategy' | 'event';

export interface PointInfo {
  readonly family: DispatchFamily;
  /** Fast points get 5 s by default, the rest 30 s. */
  readonly fast: boolean;
  /** The slot observing this point (its owner is consulted after a chain or as the strategy). */
  readonly slot?: string;
  /** input.receive is the one intercepted point with no observation event. */
  readonly events: boolean;
}

const chain = (fast: boolean, slot?: string, events = true): PointInfo => ({ family: 'chain', fast, slot, events });
const strategy = (slot: string): PointInfo => ({ family: 'strategy', fast: false, slot, events: true });

export const POINTS: Readonly<Record<HookPoint, PointInfo>> = {
  'input.receive': chain(true, undefined, false),
  'tool.before': chain(true),
  'tool.after': chain(true),
  'permission.decision': chain(true, 'permission'),
  'agent.before_start': chain(false),
  'context.prepare': chain(false, 'context'),
  'provider.request': chain(false, 'provider_request'),
  'provider.response': chain(false, 'provider_response'),
  'compaction.prepare': chain(false, 'compaction'),
  'compaction.complete': chain(false, 'compaction'),
  'system_prompt.build': strategy('system_prompt'),
  'session.load': strategy('session_policy'),
  'session.save': strategy('session_policy'),
  'session.rotate': strategy('session_policy'),
  'frontend.event': strategy('frontend_events'),
  'session.start': { family: 'event', fast: false, slot: 'session_policy', events: true },
  'session.end': { family: 'event', fast: false, slot: 'session_policy', events: true },
};

export function isHookPoint(value: unknown): value is HookPoint {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(POINTS, value);
}

export interface InterceptTimeouts {
  /** input.receive, tool.before, tool.after, permission.decision. */
  fastMs: number;
  /** Every other point. */
  slowMs: number;
  /** A manifest timeoutMillis is clamped to this. */
  ceilingMs: number;
}

export const DEFAULT_INTERCEPT_TIMEOUTS: InterceptTimeouts = { fastMs: 5_000, slowMs: 30_000, ceilingMs: 60_000 };

/**
 * The effective budget: a manifest `timeoutMillis > 0` replaces the family default for every
 * point of that runtime, clamped to the ceiling. It is both the wire `timeoutMillis` and our timer.
 */
export function interceptBudget(
  point: HookPoint,
  manifestTimeoutMillis: number,
  t: InterceptTimeouts = DEFAULT_INTERCEPT_TIMEOUTS,
): number {
  if (Number.isFinite(manifestTimeoutMillis) && manifestTimeoutMillis > 0) {
    return Math.min(Math.floor(manifestTimeoutMillis), t.ceilingMs);
  }
  return POINTS[point].fast ? t.fastMs : t.slowMs;
}
