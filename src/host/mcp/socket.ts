// The MCP server on a socket a VS Code window's endpoint handed over (the `mcp` request kind): the
// `reasonix-host mcp` process an MCP client started relays its stdio here byte for byte, so the
// window's own sessions serve the tools and the MCP protocol is spoken by the SDK in one place.
import type { Socket } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createToolServer, type ToolSource } from './server';

/**
 * Serves until the socket closes; the server is disposed with it. The transport's line bound is the
 * endpoint's (`maxLineBytes`, which closes the connection past it), never a smaller one of its own:
 * the SDK's default 10 MiB closed the transport and left the socket open with nobody reading it
 * (issue 38 item 7). Whatever closes the transport closes the socket too, so a client always sees
 * the end of the connection instead of a call that is never answered.
 */
export async function serveToolsOnSocket(
  socket: Socket,
  source: ToolSource,
  version: string,
  maxLineBytes: number,
): Promise<void> {
  const handle = createToolServer(source, version);
  const transport = new StdioServerTransport(socket, socket, { maxBufferSize: maxLineBytes + 64 * 1024 });
  transport.onclose = () => socket.destroy();
  socket.once('close', () => {
    handle.dispose();
    void handle.server.close().catch(() => undefined);
  });
  await handle.server.connect(transport);
}
