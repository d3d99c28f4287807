// In-process doubles for the UI hub's ports.
import type { PromptAnswer, PromptRequest, Surface, UIActionDecl, UIPublishParams } from '../../../src/protocol';
import type { UiClient, UiFrontEnd, UiHub } from '../../../src/host/ui';

/** `host/ui/publish` as the connection hands it over: with the byte length of its frame. */
export function publish(hub: UiHub, pluginId: string, params: UIPublishParams) {
  const frame = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'host/ui/publish', params });
  return hub.publish(pluginId, params, Buffer.byteLength(frame));
}

export class FakeUiClient implements UiClient {
  state = 'running';
  uiActions: UIActionDecl[] = [];
  readonly calls: Array<{ method: string; params: Record<string, unknown> }> = [];
  reply: (method: string, params: Record<string, unknown>) => unknown = () => ({ accepted: true });

  request<R>(method: string, params: object): Promise<R> {
    this.calls.push({ method, params: params as Record<string, unknown> });
    return Promise.resolve(this.reply(method, params as Record<string, unknown>) as R);
  }
}

interface Pending {
  req: PromptRequest;
  signal: AbortSignal;
  answer(a: PromptAnswer): void;
}

export class FakeFrontEnd implements UiFrontEnd {
  readonly notified: Array<Surface & { kind: 'notification' }> = [];
  readonly prompts: Pending[] = [];
  private waiters: Array<() => void> = [];

  notify(n: Surface & { kind: 'notification' }): void {
    this.notified.push(n);
  }

  prompt(req: PromptRequest, signal: AbortSignal): Promise<PromptAnswer> {
    return new Promise((resolve) => {
      this.prompts.push({ req, signal, answer: resolve });
      for (const w of this.waiters.splice(0)) w();
    });
  }

  async nextPrompt(index = this.prompts.length): Promise<Pending> {
    while (this.prompts.length <= index) await new Promise<void>((r) => this.waiters.push(r));
    return this.prompts[index];
  }
}
