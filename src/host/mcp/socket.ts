// The MCP server on a socket a VS Code window's endpoint handed over (the `mcp` request kind): the
// `reasonix-host mcp` process an MCP client started relays its stdio here byte for byte, so the
// window's own sessions serve the tools and the MCP protocol is spoken by the SDK in one place.
import type { Socket } from 'node:net';
import { createToolServer, type ToolSource } from './server';
import { McpStdioTransport } from './stdioTransport';

/**
 * Serves until the socket closes; the server is disposed with it. `note` hears what the client did
 * wrong that it may not see itself (an oversize message; the window logs it).
 * Whatever closes the transport closes the socket too, so a client always sees the end of the
 * connection instead of a call that is never answered (issue 38 item 7).
 */
export async function serveToolsOnSocket(
  socket: Socket,
  source: ToolSource,
  version: string,
  note?: (text: string) => void,
): Promise<void> {
  const handle = createToolServer(source, version);
  const transport = new McpStdioTransport(socket, socket, { note });
  transport.onclose = () => socket.destroy();
  socket.once('close', () => {
    handle.dispose();
    void handle.server.close().catch(() => undefined);
  });
  await handle.server.connect(transport);
}
