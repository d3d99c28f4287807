// The page's side of the MCP Apps wire (spec revision 2026-01-26): JSON-RPC 2.0 over postMessage to
// the host frame. Small on purpose: requests with ids, notifications, and the host's requests
// answered (ping, teardown); nothing else of the SDK is needed on a card.

type Json = Record<string, unknown>;

export interface RpcPeer {
  request(method: string, params: Json): Promise<Json>;
  notify(method: string, params: Json): void;
}

export function connectHost(
  onNotification: (method: string, params: Json) => void,
  onRequest: (method: string, params: Json) => Json | undefined,
  target: Window = window.parent,
): RpcPeer {
  let next = 1;
  const pending = new Map<number, { resolve(r: Json): void; reject(e: Error): void }>();
  const post = (m: Json) => target.postMessage({ jsonrpc: '2.0', ...m }, '*');
  window.addEventListener('message', (e: MessageEvent<unknown>) => {
    if (e.source !== target) return; // only the host frame speaks to the page
    const m = e.data as Json | null;
    if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return;
    const params = (m.params && typeof m.params === 'object' ? m.params : {}) as Json;
    if (typeof m.method === 'string' && m.id !== undefined) {
      const result = onRequest(m.method, params);
      if (result) post({ id: m.id, result });
      else post({ id: m.id, error: { code: -32601, message: `method not found: ${m.method}` } });
    } else if (typeof m.method === 'string') onNotification(m.method, params);
    else if (typeof m.id === 'number' && pending.has(m.id)) {
      const p = pending.get(m.id)!;
      pending.delete(m.id);
      const err = m.error as { message?: string } | undefined;
      if (err) p.reject(new Error(err.message ?? 'the host answered with an error'));
      else p.resolve((m.result ?? {}) as Json);
    }
  });
  return {
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        post({ id, method, params });
      }),
    notify: (method, params) => post({ method, params }),
  };
}
