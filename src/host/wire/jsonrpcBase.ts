// The parts of vscode-jsonrpc the wire builds on: the reader/writer base classes and Emitter.
// They are imported from the library's own modules, not `vscode-jsonrpc/node`, whose entry point
// loads the whole library (its MessageConnection included, ~45 KB of the extension bundle) although
// the connection is ours (connection.ts). The library's Emitter reports a throwing listener through
// its runtime abstraction layer, which only that entry point installs; without one the report
// would itself throw, so a console-only layer is installed when none is.
import RAL from 'vscode-jsonrpc/lib/common/ral';

export { AbstractMessageReader, type DataCallback, type MessageReader } from 'vscode-jsonrpc/lib/common/messageReader';
export { AbstractMessageWriter, type MessageWriter } from 'vscode-jsonrpc/lib/common/messageWriter';
export { Emitter, type Event } from 'vscode-jsonrpc/lib/common/events';
export type { Disposable } from 'vscode-jsonrpc/lib/common/disposable';
export type { Message } from 'vscode-jsonrpc/lib/common/messages';

try {
  RAL();
} catch {
  RAL.install({ console } as unknown as RAL);
}
