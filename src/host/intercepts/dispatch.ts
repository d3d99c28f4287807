// Dispatch of the 17 hook points over one runtime generation's clients (HOST_SPEC §4.0–§4.6).
// A dispatcher lives exactly as long as its generation: warn-once memory is per instance.
import type { ErrorReason } from '../../protocol';
import { serializePayload, type SerializedPayload } from '../content';
import { silentLogger, type Logger } from '../log';
import { ask, type Answer, type Failure } from './ask';
import { isRequiredClass, type InterceptClient } from './ports';
import { broadcastEvent } from './events';
import { buildHookPayload, type DecodeOptions, type HookPayloadMap } from './payloads';
import { DEFAULT_INTERCEPT_TIMEOUTS, POINTS, type HookPoint, type InterceptTimeouts } from './points';
import { SlotCollisionError, validateSlots } from './slots';

export type DispatchDecision = 'continue' | 'block' | 'allow' | 'deny' | 'failed';

/** A chain member that was not heard (see DispatchOutcome.skipped). */
export interface SkippedMember {
  pluginId: string;
  reason: ErrorReason;
  /** Credential-redacted. */
  message: string;
}

/** Who takes part at a point, as the dispatcher walks it: chain members, then the slot owner. */
export interface PointMember {
  pluginId: string;
  /** Its failure fails the operation (required-class runtime) or, for a permission owner, blocks it. */
  required: boolean;
  running: boolean;
  /** Its state in words when not running ("crashed", "stopped", "failed"…). */
  state?: string;
}

export interface DispatchError {
  reason: ErrorReason;
  /** Credential-redacted. */
  message: string;
  pluginId: string;
}

export interface DispatchOutcome<P extends HookPoint = HookPoint> {
  point: P;
  decision: DispatchDecision;
  /** The final payload (as replaced), in host form. */
  payload: HookPayloadMap[P];
  /** Plugins whose `replace` was applied, in order. */
  changedBy: string[];
  /** Credential-redacted, each emitted once per (plugin, class) for this generation. */
  warnings: string[];
  blockedBy?: string;
  /** The block/allow/deny reason, credential-redacted. */
  reason?: string;
  /** E.g. an extension `allow` over a host `deny`. */
  audit?: string[];
  /**
   * Chain members (optional class) whose ruling could not be had — not running, too large to
   * send, timed out, or answered out of contract — and were skipped with a warning. A caller that
   * must never allow silently (the agent-hooks bridge) asks the user instead (issue 28 item 4).
   */
  skipped: SkippedMember[];
  /**
   * Set when decision is 'failed': the failure that aborted the operation (a required-class
   * plugin's, or a `tool.before` replacement violation from any plugin). Also set on a 'block'
   * at permission.decision that a failing permission owner caused (HOST_SPEC §4.5).
   */
  error?: DispatchError;
}

/**
 * Per-dispatch options. `knownTools` (from DecodeOptions, overriding the dispatcher's): the tools
 * the caller's agent knows; a `tool.before` replacement naming any other tool fails the tool call
 * as a contract violation for every plugin class. Without it any non-empty name is accepted.
 */
export interface DispatchOptions extends DecodeOptions {
  /** Caller cancellation: rejects the dispatch with the signal's reason. */
  signal?: AbortSignal;
}

export interface DispatcherOptions extends DecodeOptions {
  logger?: Logger;
  /** Family defaults and ceiling; tests shrink them. */
  timeouts?: Partial<InterceptTimeouts>;
}

interface Walk<P extends HookPoint> {
  outcome: DispatchOutcome<P>;
  current: SerializedPayload;
  /** The dispatch's options, worked out once for every member asked. */
  decode: DecodeOptions;
  signal: AbortSignal | undefined;
  /** A chain allow over the host's deny, recorded only if the permission owner lets it stand. */
  pendingAudit?: string;
}

const NO_OPTIONS: DispatchOptions = Object.freeze({});

export class InterceptDispatcher {
  private readonly clients: readonly InterceptClient[];
  private readonly owners: ReadonlyMap<string, InterceptClient>;
  private readonly chains = new Map<HookPoint, readonly InterceptClient[]>();
  private readonly recipients = new Map<HookPoint, readonly InterceptClient[]>();
  private readonly warned = new Set<string>();
  private readonly logger: Logger;
  private readonly timeouts: InterceptTimeouts;
  private readonly decode: DecodeOptions;

  /** Throws SlotCollisionError when two clients claim one slot. */
  constructor(clients: readonly InterceptClient[], opts: DispatcherOptions = {}) {
    const slots = validateSlots(clients);
    if (!slots.ok) throw new SlotCollisionError(slots.message, slots.slot, slots.plugins);
    const byId = new Map(clients.map((c) => [c.pluginId, c]));
    this.owners = new Map([...slots.owners].map(([slot, id]) => [slot, byId.get(id) as InterceptClient]));
    this.clients = clients;
    this.logger = opts.logger ?? silentLogger;
    this.timeouts = { ...DEFAULT_INTERCEPT_TIMEOUTS, ...opts.timeouts };
    this.decode = { knownTools: opts.knownTools };
  }

  /** The interceptor chain at `point`: priority asc, then plugin id, then registration order. */
  chain(point: HookPoint): readonly InterceptClient[] {
    let chain = this.chains.get(point);
    if (!chain) {
      chain =
        POINTS[point].family === 'chain'
          ? this.clients.filter((c) => c.runtime.intercepts.includes(point)).sort(compareClients)
          : [];
      this.chains.set(point, chain);
    }
    return chain;
  }

  /** Owner of a strategy slot, if any. */
  owner(slot: string): InterceptClient | undefined {
    return this.owners.get(slot);
  }

  /**
   * Everyone asked at `point`, in the order the walk asks them: for a chain point its members and
   * the observing slot's owner, for a strategy point the owner; an event-only point asks nobody.
   * The one answer to "who takes part, and who is required" (the agent-hooks bridge reads it).
   */
  members(point: HookPoint): PointMember[] {
    const info = POINTS[point];
    if (info.family === 'event') return [];
    const asked = [...this.chain(point)];
    const owner = info.slot ? this.owners.get(info.slot) : undefined;
    if (owner && !asked.includes(owner)) asked.push(owner);
    return asked.map((c) => ({
      pluginId: c.pluginId,
      required: isRequiredClass(c.runtime) || (c === owner && info.slot === 'permission'),
      running: c.isLive(),
      ...(c.state === undefined ? {} : { state: c.state }),
    }));
  }

  /** Who gets `extension/event` at `point`: listed interceptors + owners of the observing slot. */
  eventRecipients(point: HookPoint): readonly InterceptClient[] {
    let list = this.recipients.get(point);
    if (!list) {
      const info = POINTS[point];
      const set = new Set<InterceptClient>();
      if (info.events) {
        for (const c of [...this.clients].sort(compareClients)) if (c.runtime.intercepts.includes(point)) set.add(c);
        const owner = info.slot ? this.owners.get(info.slot) : undefined;
        if (owner) set.add(owner);
      }
      list = [...set];
      this.recipients.set(point, list);
    }
    return list;
  }

  async dispatch<P extends HookPoint>(
    point: P,
    payload: HookPayloadMap[P],
    opts: DispatchOptions = NO_OPTIONS,
  ): Promise<DispatchOutcome<P>> {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('intercept dispatch cancelled');
    const initial = buildHookPayload(point, payload);
    const walk: Walk<P> = {
      outcome: { point, decision: 'continue', payload: initial, changedBy: [], warnings: [], skipped: [] },
      current: serializePayload(initial),
      decode: opts.knownTools ? { knownTools: opts.knownTools } : this.decode,
      signal: opts.signal,
    };
    const info = POINTS[point];
    if (info.family === 'chain') await this.walkChain(walk);
    else if (info.family === 'strategy') await this.runStrategy(walk, info.slot as string);
    const recipients = this.eventRecipients(point);
    if (walk.outcome.decision !== 'failed' && recipients.length) {
      broadcastEvent(recipients, point, walk.current, (id, cls, msg) => this.warnOnce(walk.outcome, id, cls, msg));
    }
    return walk.outcome;
  }

  private askFor<P extends HookPoint>(client: InterceptClient, walk: Walk<P>): Promise<Answer | Failure> {
    return ask(client, {
      point: walk.outcome.point,
      payload: walk.current,
      timeouts: this.timeouts,
      decode: walk.decode,
      signal: walk.signal,
    });
  }

  private async walkChain<P extends HookPoint>(walk: Walk<P>): Promise<void> {
    const point = walk.outcome.point;
    chain: for (const client of this.chain(point)) {
      let answer = await this.askFor(client, walk);
      if ((answer.kind === 'allow' || answer.kind === 'deny') && point !== 'permission.decision') {
        answer = {
          kind: 'failure',
          reason: 'protocol_error',
          message: `contract violation: '${answer.kind}' is only legal at permission.decision, not ${point}`,
        };
      }
      switch (answer.kind) {
        case 'failure':
          // everyClass: a tool.before replacement with empty arguments or an unknown tool fails
          // the tool call even from an optional plugin (HOST_SPEC §4.1).
          if (isRequiredClass(client.runtime) || answer.everyClass) return this.fail(walk, client, answer);
          walk.outcome.skipped.push({ pluginId: client.pluginId, reason: answer.reason, message: answer.message });
          this.warnOnce(
            walk.outcome,
            client.pluginId,
            answer.reason,
            `${point} ruling ignored (${answer.reason}): ${answer.message}`,
          );
          continue;
        case 'continue':
          continue;
        case 'replace':
          this.apply(walk, client, answer.payload);
          continue;
        case 'block':
          // A blocked chain ends the walk: the slot owner is not consulted.
          this.block(walk, client, answer.reason);
          return;
        case 'allow':
        case 'deny':
          // The first allow/deny ends the chain phase only; the permission owner still rules.
          this.permissionVerdict(walk, client, answer.kind, answer.reason);
          break chain;
      }
    }
    const slot = POINTS[point].slot;
    const owner = slot ? this.owners.get(slot) : undefined;
    if (owner) await this.consultOwner(walk, owner, slot as string);
    if (point === 'permission.decision') this.auditAllow(walk);
  }

  /**
   * The slot owner after a chain that did not block (HOST_SPEC §4.5). At `permission` the owner
   * is consulted even after a chain allow/deny, and only `continue`/`block` are legal: `block`
   * vetoes the tool; `allow`/`deny` is a contract violation and, like any owner failure there,
   * blocks the tool (the reference's rule; elsewhere an owner failure fails the operation).
   */
  private async consultOwner<P extends HookPoint>(walk: Walk<P>, owner: InterceptClient, slot: string): Promise<void> {
    let answer = await this.askFor(owner, walk);
    if (answer.kind === 'allow' || answer.kind === 'deny') {
      answer = {
        kind: 'failure',
        reason: 'protocol_error',
        message: `contract violation: '${answer.kind}' from the ${slot} strategy at ${walk.outcome.point}`,
      };
    }
    switch (answer.kind) {
      case 'failure':
        if (slot === 'permission') return this.blockOnOwnerFailure(walk, owner, answer);
        return this.fail(walk, owner, answer);
      case 'continue':
        return;
      case 'replace':
        // At `permission` a replacement only changes what observers see; the verdict is unaffected.
        return this.apply(walk, owner, answer.payload);
      case 'block':
        return this.block(walk, owner, answer.reason);
    }
  }

  /** A failing permission owner blocks the tool call; the failure is kept in `error`. */
  private blockOnOwnerFailure<P extends HookPoint>(walk: Walk<P>, owner: InterceptClient, f: Failure): void {
    this.block(walk, owner, `permission strategy of '${owner.pluginId}' failed (${f.reason}): ${f.message}`);
    walk.outcome.error = { reason: f.reason, message: f.message, pluginId: owner.pluginId };
    this.logger.error(
      `${owner.pluginId}: permission strategy failed at permission.decision (${f.reason}): ${f.message}; the tool call is blocked`,
    );
  }

  /** system_prompt.build, session.load/save/rotate, frontend.event: only the slot owner is asked. */
  private async runStrategy<P extends HookPoint>(walk: Walk<P>, slot: string): Promise<void> {
    const point = walk.outcome.point;
    const owner = this.owners.get(slot);
    if (!owner) return;
    let answer = await this.askFor(owner, walk);
    if (answer.kind === 'allow' || answer.kind === 'deny') {
      answer = {
        kind: 'failure',
        reason: 'protocol_error',
        message: `contract violation: '${answer.kind}' from the ${slot} strategy at ${point}`,
      };
    }
    switch (answer.kind) {
      case 'failure':
        // Loading tolerates a failing policy and frontend events fall back to the original event;
        // a failing system prompt, save or rotate fails that operation.
        if (point === 'session.load' || point === 'frontend.event') {
          this.warn(
            walk.outcome,
            `${owner.pluginId}: ${slot} strategy failed at ${point} (${answer.reason}): ${answer.message}; host default used`,
          );
          return;
        }
        return this.fail(walk, owner, answer);
      case 'continue':
        return;
      case 'replace': {
        const prior = walk.outcome.payload as HookPayloadMap['frontend.event'];
        const next = answer.payload as HookPayloadMap['frontend.event'];
        if (point === 'frontend.event' && next.kind !== prior.kind) {
          this.warn(
            walk.outcome,
            `${owner.pluginId}: frontend.event replacement changed kind '${prior.kind}' to '${next.kind}'; discarded`,
          );
          return;
        }
        return this.apply(walk, owner, answer.payload);
      }
      case 'block':
        return this.block(walk, owner, answer.reason);
    }
  }

  private apply<P extends HookPoint>(walk: Walk<P>, client: InterceptClient, payload: unknown): void {
    walk.outcome.payload = payload as HookPayloadMap[P];
    walk.current = serializePayload(payload);
    walk.outcome.changedBy.push(client.pluginId);
  }

  /** Also replaces a chain allow/deny (the permission owner's veto): its reason does not linger. */
  private block<P extends HookPoint>(walk: Walk<P>, client: InterceptClient, reason: string | undefined): void {
    walk.outcome.decision = 'block';
    walk.outcome.blockedBy = client.pluginId;
    if (reason !== undefined) walk.outcome.reason = reason;
    else delete walk.outcome.reason;
  }

  private permissionVerdict<P extends HookPoint>(
    walk: Walk<P>,
    client: InterceptClient,
    verdict: 'allow' | 'deny',
    reason: string | undefined,
  ): void {
    walk.outcome.decision = verdict;
    walk.outcome.blockedBy = client.pluginId;
    if (reason !== undefined) walk.outcome.reason = reason;
    const payload = walk.outcome.payload as HookPayloadMap['permission.decision'];
    if (verdict === 'allow' && payload.hostDecision === 'deny') {
      walk.pendingAudit = `plugin '${client.pluginId}' allowed tool '${payload.name}' over the host's deny${reason ? `: ${reason}` : ''}`;
    }
  }

  /** Full trust: an extension may override the host's deny, but an allow that stood leaves a trace. */
  private auditAllow<P extends HookPoint>(walk: Walk<P>): void {
    const note = walk.pendingAudit;
    if (note === undefined || walk.outcome.decision !== 'allow') return;
    (walk.outcome.audit ??= []).push(note);
    this.logger.info(`audit: ${note}`);
  }

  private fail<P extends HookPoint>(walk: Walk<P>, client: InterceptClient, f: Failure): void {
    walk.outcome.decision = 'failed';
    walk.outcome.error = { reason: f.reason, message: f.message, pluginId: client.pluginId };
    this.logger.error(
      `${client.pluginId}: required ${walk.outcome.point} interception failed (${f.reason}): ${f.message}`,
    );
  }

  private warn(outcome: DispatchOutcome, message: string): void {
    outcome.warnings.push(message);
    this.logger.warn(message);
  }

  /** Optional-plugin trouble is reported once per (plugin, class) for this generation. */
  private warnOnce(outcome: DispatchOutcome, pluginId: string, cls: string, message: string): void {
    const key = `${pluginId}\u0000${cls}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(outcome, `${pluginId}: ${message}`);
  }
}

function compareClients(a: InterceptClient, b: InterceptClient): number {
  return (
    a.runtime.priority - b.runtime.priority ||
    (a.pluginId < b.pluginId ? -1 : a.pluginId > b.pluginId ? 1 : 0) ||
    a.registration - b.registration
  );
}

/** Convenience for one-off use; long-lived callers keep an InterceptDispatcher per generation. */
export function createDispatcher(clients: readonly InterceptClient[], opts?: DispatcherOptions): InterceptDispatcher {
  return new InterceptDispatcher(clients, opts);
}
