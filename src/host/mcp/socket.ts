// The MCP server on a socket a VS Code window's endpoint handed over (the `mcp` request kind): the
// `reasonix-host mcp` process an MCP client started relays its stdio here byte for byte, so the
// window's own sessions serve the tools and the MCP protocol is spoken by the SDK in one place.
import type { Socket } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createToolServer, type ToolSource } from './server';

/** Serves until the socket closes; the server is disposed with it. */
export async function serveToolsOnSocket(socket: Socket, source: ToolSource, version: string): Promise<void> {
  const handle = createToolServer(source, version);
  const transport = new StdioServerTransport(socket, socket);
  socket.once('close', () => {
    handle.dispose();
    void handle.server.close().catch(() => undefined);
  });
  await handle.server.connect(transport);
}
