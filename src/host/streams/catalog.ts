// `extension/provider/catalog` per client (HOST_SPEC §6): bounded, cached for the life of the
// process behind the client, coalesced, and never able to offer another plugin's refs. The result
// arrives schema-valid (the connection checks every result once); a malformed one is a failed call.
import { type ProviderCatalogResult, type ProviderDescriptor } from '../../protocol';
import { silentLogger, type Logger } from '../log';
import { redact, redactDeep } from '../redact';
import type { Disposable, ProviderClient } from './ports';

export interface CatalogOptions {
  /** Bound of the catalog call (reference 10 s). */
  timeoutMs?: number;
  logger?: Logger;
}

export interface PluginCatalog {
  pluginId: string;
  /** Descriptors whose ref lies under `plugin/<pluginId>/`. Empty when the call failed. */
  providers: ProviderDescriptor[];
  /** Redacted reasons entries were dropped or the call failed. */
  warnings: string[];
  /** False when the call failed; such results are never cached. */
  ok: boolean;
}

interface CacheSlot {
  pending?: Promise<PluginCatalog>;
  result?: PluginCatalog;
  sub: Disposable;
}

const cache = new WeakMap<ProviderClient, CacheSlot>();

function slotFor(client: ProviderClient): CacheSlot {
  let slot = cache.get(client);
  if (!slot) {
    const fresh: CacheSlot = {
      // A new process (restart) may offer different models: forget what the old one said.
      sub: client.onStateChange((state) => {
        if (state !== 'running') {
          fresh.result = undefined;
          fresh.pending = undefined;
        }
      }),
    };
    slot = fresh;
    cache.set(client, slot);
  }
  return slot;
}

/** The plugin's models; on failure an empty list plus a warning (the plugin offers none this time). */
export function catalog(client: ProviderClient, opts: CatalogOptions = {}): Promise<PluginCatalog> {
  const slot = slotFor(client);
  if (slot.result) return Promise.resolve(slot.result);
  if (slot.pending) return slot.pending;
  const pending = fetchCatalog(client, opts).then((result) => {
    if (slot.pending === pending) {
      slot.pending = undefined;
      if (result.ok && client.state === 'running') slot.result = result;
    }
    return result;
  });
  slot.pending = pending;
  return pending;
}

async function fetchCatalog(client: ProviderClient, opts: CatalogOptions): Promise<PluginCatalog> {
  const log = opts.logger ?? silentLogger;
  const pluginId = client.pluginId;
  let result: ProviderCatalogResult;
  try {
    result = await client.request<ProviderCatalogResult>(
      'extension/provider/catalog',
      {},
      { timeoutMs: opts.timeoutMs ?? 10_000 },
    );
  } catch (err) {
    const warning = `provider catalog of ${pluginId} failed, it offers no models this time: ${redact(err instanceof Error ? err.message : String(err))}`;
    log.warn(warning);
    return { pluginId, providers: [], warnings: [warning], ok: false };
  }
  const prefix = `plugin/${pluginId}/`;
  const providers: ProviderDescriptor[] = [];
  const warnings: string[] = [];
  for (const d of result.providers) {
    if (d.ref.startsWith(prefix) && d.ref.length > prefix.length) {
      // Redacted here, where the catalog is received: every field (displayName, model, efforts,
      // pricingCurrency, ...) but the ref, an identifier checked against the plugin's prefix.
      providers.push({ ...redactDeep(d), ref: d.ref });
    } else {
      const warning = `provider catalog of ${pluginId}: dropped ${redact(d.ref)} (outside ${prefix})`;
      log.warn(warning);
      warnings.push(warning);
    }
  }
  return { pluginId, providers, warnings, ok: true };
}
