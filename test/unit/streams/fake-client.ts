// An in-process ProviderClient: records every request and answers from a per-method script.
// Like the real connection (the port's contract), it rejects a result failing its schema.
import { ProtocolError, V1, type Contract } from '../../../src/protocol';
import type { ClientState, Disposable, ProviderClient, RequestOptions } from '../../../src/host/streams';

export interface Call {
  method: string;
  params: Record<string, unknown>;
  opts?: RequestOptions;
}

export type Responder = (params: Record<string, unknown>, opts?: RequestOptions) => unknown;

export class FakeClient implements ProviderClient {
  state: ClientState = 'running';
  /** A v1 client unless a test sets V2 (streams then carry generations). */
  contract: Contract = V1;
  generation = 1;
  readonly calls: Call[] = [];
  readonly responders = new Map<string, Responder>();
  private readonly listeners = new Set<(s: ClientState, p: ClientState) => void>();
  private readonly callWaiters: Array<() => void> = [];

  constructor(readonly pluginId = 'prov') {
    this.responders.set('extension/provider/stream/open', () => ({ accepted: true }));
    this.responders.set('extension/provider/stream/cancel', () => ({ cancelled: true }));
  }

  request<R>(method: string, params: object, opts?: RequestOptions): Promise<R> {
    this.calls.push({ method, params: params as Record<string, unknown>, opts });
    for (const w of this.callWaiters.splice(0)) w();
    const r = this.responders.get(method);
    if (!r) return Promise.reject(new Error(`no responder for ${method}`));
    try {
      return Promise.resolve(r(params as Record<string, unknown>, opts)).then((result) => {
        const v = this.contract.validateResult<R>(method as Parameters<Contract['validateResult']>[0], result);
        if (!v.ok) throw new ProtocolError('protocol_error', `invalid ${method} result: ${v.message}`);
        return v.value;
      });
    } catch (err) {
      return Promise.reject(err);
    }
  }

  onStateChange(l: (s: ClientState, p: ClientState) => void): Disposable {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }

  setState(s: ClientState): void {
    const prev = this.state;
    this.state = s;
    for (const l of [...this.listeners]) l(s, prev);
  }

  callsOf(method: string): Call[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Resolves once a call of `method` has been made. */
  async waitForCall(method: string): Promise<Call> {
    for (;;) {
      const c = this.calls.find((x) => x.method === method);
      if (c) return c;
      await new Promise<void>((resolve) => this.callWaiters.push(resolve));
    }
  }
}
