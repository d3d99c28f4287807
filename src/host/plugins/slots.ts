// Strategy slot names a runtime block may `replace` (HOST_SPEC §4.5).

import { FIXED_SLOTS } from '../../protocol';

// The fixed slots are listed once, in scripts/gen-protocol.mjs (the manifest schema's enum too).
export { FIXED_SLOTS };

const SEGMENT = /^[^\s/]+$/;

/** `<name>/<model>` or `plugin/<id>/<name>/<model>`; the model part may itself contain '/'. */
export function isProviderRef(ref: string): boolean {
  const parts = ref.split('/');
  const fixedCount = parts[0] === 'plugin' ? 3 : 1;
  if (parts.length <= fixedCount) return false;
  const fixed = parts.slice(0, fixedCount);
  const model = parts.slice(fixedCount).join('/');
  return (
    fixed.every((p) => SEGMENT.test(p)) &&
    model.trim() !== '' &&
    !/\s/.test(model) &&
    !model.startsWith('/') &&
    !model.endsWith('/')
  );
}

/** Why `slot` is not a slot, or undefined when it is one. */
export function slotProblem(slot: string): string | undefined {
  if ((FIXED_SLOTS as readonly string[]).includes(slot)) return undefined;
  if (slot.startsWith('tool:')) {
    return slot.slice('tool:'.length).trim() ? undefined : `"${slot}" needs a tool name after "tool:"`;
  }
  if (slot.startsWith('provider:')) {
    return isProviderRef(slot.slice('provider:'.length))
      ? undefined
      : `"${slot}" needs a provider ref of the form <name>/<model> or plugin/<id>/<name>/<model>`;
  }
  return `"${slot}" is not a strategy slot (known: ${FIXED_SLOTS.join(', ')}, tool:<name>, provider:<ref>)`;
}
