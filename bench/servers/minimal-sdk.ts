/**
 * The baseline of bench/http-vs-sdk.ts: the official SDK's smallest stateless Streamable HTTP server, one
 * `echo` tool, on the same Express wiring Waymark uses (createMcpExpressApp, a fresh server and transport per
 * request). It prints `listening on <url>` like `waymark serve`.
 */
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { z } from 'zod';

function server(): McpServer {
  const s = new McpServer({ name: 'minimal', version: '1.0.0' });
  s.registerTool('echo', { description: 'Echoes its text.', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return s;
}

const app = createMcpExpressApp({ host: '127.0.0.1' });
app.post('/mcp', async (req: Request, res: Response) => {
  const s = server();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void s.close();
  });
  await s.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
const listener = app.listen(0, '127.0.0.1', () => {
  const address = listener.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}/mcp`);
});
