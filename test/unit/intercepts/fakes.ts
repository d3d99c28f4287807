// In-process InterceptClient fakes for dispatcher logic; real-process coverage is in *.process.test.ts.
import { ProtocolError, type EventParams, type InterceptParams } from '../../../src/protocol';
import { ContentStore } from '../../../src/host/content/store';
import type { InterceptClient, InterceptRequestOptions, InterceptRuntime } from '../../../src/host/intercepts';

export type FakeHandler = (params: InterceptParams, client: FakeClient) => unknown;

export class FakeClient implements InterceptClient {
  readonly runtime: InterceptRuntime;
  readonly content = new ContentStore();
  readonly calls: InterceptParams[] = [];
  readonly events: EventParams[] = [];
  live = true;
  acceptEvents = true;
  private seq = 0;

  constructor(
    readonly pluginId: string,
    runtime: Partial<InterceptRuntime>,
    private readonly handler: FakeHandler = () => ({ decision: 'continue' }),
    readonly registration = 0,
  ) {
    this.runtime = { intercepts: [], replaces: [], priority: 0, required: false, timeoutMillis: 0, ...runtime };
  }

  isLive(): boolean {
    return this.live;
  }

  nextInterceptSeq(): number {
    return ++this.seq;
  }

  request<R>(_method: 'extension/intercept', params: InterceptParams, opts: InterceptRequestOptions): Promise<R> {
    this.calls.push(params);
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ProtocolError(opts.timeoutReason, `intercept timed out after ${opts.timeoutMs} ms`)),
        opts.timeoutMs,
      );
      Promise.resolve()
        .then(() => this.handler(params, this))
        .then(
          (v) => {
            clearTimeout(timer);
            resolve(v as R);
          },
          (e: unknown) => {
            clearTimeout(timer);
            reject(e);
          },
        );
    });
  }

  sendEvent(params: EventParams): boolean {
    if (!this.acceptEvents) return false;
    this.events.push(params);
    return true;
  }
}

export const never = (): Promise<never> => new Promise<never>(() => undefined);
