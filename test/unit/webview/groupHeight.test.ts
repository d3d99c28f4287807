import * as assert from 'node:assert/strict';
import { estimatedHeight, KIND_HEIGHT_PX } from '../../../webview/logic/groupHeight';
import { manySurfaces } from './fixtures';

describe('webview: the height an undrawn plugin group holds', () => {
  it('is the sum of its surfaces by kind, and nothing for none', () => {
    assert.equal(estimatedHeight([]), 0);
    assert.equal(estimatedHeight(['status', 'card', 'card']), KIND_HEIGHT_PX.status + 2 * KIND_HEIGHT_PX.card);
    for (const px of Object.values(KIND_HEIGHT_PX)) assert.ok(px > 0 && Number.isInteger(px));
  });

  it('holds a group of the scale mix at more than a side bar screen (so one draws at a time)', () => {
    const kinds = manySurfaces(1, 1, 20).map((s) => s.kind);
    assert.equal(kinds.length, 20);
    assert.ok(estimatedHeight(kinds) > 900, `${estimatedHeight(kinds)} px`);
  });
});
