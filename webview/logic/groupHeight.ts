// About how tall a plugin group's surfaces are once drawn, by kind, in CSS px at the side bar's
// usual width (measured on the bench's mix at 320 px, Light/Dark Modern, 13 px font). An undrawn
// group holds this height so the scroll bar is about right and a group drawn as it nears the
// viewport does not move what is on screen. Pure, so it is unit-tested in Node.
import type { SurfaceKind } from '../../src/webviewProtocol/messages';

export const KIND_HEIGHT_PX: Readonly<Record<SurfaceKind, number>> = {
  status: 52,
  notification: 60,
  card: 110,
  form: 120,
  panel: 130,
  view: 70,
};

export function estimatedHeight(kinds: readonly SurfaceKind[]): number {
  let px = 0;
  for (const k of kinds) px += KIND_HEIGHT_PX[k];
  return px;
}
