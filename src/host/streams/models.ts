// Model refs `plugin/<plugin>/<provider>/<model>` route only to the plugin they name. There is
// never a fallback: a plugin that is not running or did not declare the ref is an error.
import { ProtocolError, type ProviderDescriptor } from '../../protocol';

export interface CatalogView {
  pluginId: string;
  /** Whether the plugin's sidecar is running now. */
  running: boolean;
  providers: readonly ProviderDescriptor[];
}

export interface ResolvedModel {
  pluginId: string;
  /** The declared descriptor ref to send as `providerRef`. */
  providerRef: string;
  /** The model segment to send as `model`, when known. */
  model?: string;
  descriptor: ProviderDescriptor;
}

export class UnknownModelError extends ProtocolError {
  constructor(
    readonly ref: string,
    why: string,
  ) {
    super('invalid_params', `unknown model "${ref}": ${why}`);
    this.name = 'UnknownModelError';
  }
}

/** The plugin id a `plugin/<id>/…` ref names, or undefined for any other ref. */
export function pluginOfRef(ref: string): string | undefined {
  const m = /^plugin\/([^/]+)\/.+/.exec(ref);
  return m ? m[1] : undefined;
}

export function resolveModel(ref: string, catalogs: Iterable<CatalogView>): ResolvedModel {
  const pluginId = pluginOfRef(ref);
  if (!pluginId) throw new UnknownModelError(ref, 'not a plugin/<plugin>/<provider>/<model> ref');
  let view: CatalogView | undefined;
  for (const c of catalogs) if (c.pluginId === pluginId) view = c;
  if (!view) throw new UnknownModelError(ref, `plugin ${pluginId} is not loaded`);
  if (!view.running) throw new UnknownModelError(ref, `plugin ${pluginId} is not running`);
  const resolved = (d: ProviderDescriptor, model: string | undefined): ResolvedModel =>
    model === undefined
      ? { pluginId, providerRef: d.ref, descriptor: d }
      : { pluginId, providerRef: d.ref, model, descriptor: d };
  // 1) The declared ref itself.
  for (const d of view.providers) if (d.ref === ref) return resolved(d, d.model);
  // 2) A declaration naming the provider whose `model` adds the last segment.
  for (const d of view.providers) if (d.model && `${d.ref}/${d.model}` === ref) return resolved(d, d.model);
  // 3) A selection naming only the provider prefix of a declared model ref.
  for (const d of view.providers)
    if (d.ref.startsWith(`${ref}/`)) return resolved(d, d.model ?? d.ref.slice(ref.length + 1));
  throw new UnknownModelError(ref, `plugin ${pluginId} does not declare it`);
}
