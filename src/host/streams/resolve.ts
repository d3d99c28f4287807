// The one provider-ref resolver (HOST_SPEC §6, issue 11 item 2). A ref is resolved against what
// each running extension declared in its InitializeResult `providers` — never against whatever a
// sidecar might accept — so an undeclared ref is refused here with "unknown model" and no
// `stream/open` ever goes out. The session engine calls it for `models()` and `openStream()`,
// so the CLI, the exported API and the language-model bridge all get the same answer.
import type { ProviderDescriptor } from '../../protocol';
import { resolveModel, UnknownModelError, type CatalogView, type ResolvedModel } from './models';

/** What one sidecar of the current generation declared at handshake. */
export interface ProviderDeclarations {
  pluginId: string;
  /** Only a running sidecar can serve a stream; a declared ref of a stopped one is still refused. */
  running: boolean;
  /** InitializeResult `providers` (already checked to lie under `plugin/<pluginId>/`). */
  providers: readonly ProviderDescriptor[];
}

/**
 * Resolves `ref` to the declared `providerRef` and `model` to send in `stream/open`:
 * the declared ref itself, a declaration plus its `model` segment, or a provider prefix that a
 * declaration extends with the model segment (`plugin/p/fake` → `plugin/p/fake/echo`, model
 * `echo`). A caller's `model` is used only when the declaration names none; naming a different
 * model than the declaration is refused. Throws UnknownModelError (`invalid_params`).
 */
export function resolveProviderRef(
  ref: string,
  declarations: Iterable<ProviderDeclarations>,
  model?: string,
): ResolvedModel {
  const views: CatalogView[] = [...declarations].map((d) => ({
    pluginId: d.pluginId,
    running: d.running,
    providers: d.providers,
  }));
  const resolved = resolveModel(ref, views);
  if (model === undefined || model === '') return resolved;
  if (resolved.model === undefined) return { ...resolved, model };
  if (resolved.model !== model) {
    throw new UnknownModelError(ref, `${resolved.providerRef} declares model "${resolved.model}", not "${model}"`);
  }
  return resolved;
}
