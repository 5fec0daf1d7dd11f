/**
 * A chat client's host page, as the MCP Apps browser test runs it in Chromium (issue 14): an SDK client that
 * announces MCP Apps, ext-apps' AppBridge, and the tool's `ui://` resource in a sandboxed frame whose CSP
 * allows no network at all. The client's messages travel to the Waymark server in the test process through
 * two functions the test exposes (`__toServer`, `__fromServer`): a pipe, like stdio.
 */
import { Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { AppBridge, getToolUiResourceUri, PostMessageTransport, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';

interface HostWindow {
  __toServer(json: string): Promise<void>;
  __fromServer?: (message: JSONRPCMessage) => void;
  host: { open(tool: string, args: Record<string, unknown>): Promise<Opened>; modelContext: unknown[]; openedLinks: string[] };
}
const w = window as unknown as Window & HostWindow;

class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  async start(): Promise<void> {
    w.__fromServer = (message) => this.onmessage?.(message);
  }
  async send(message: JSONRPCMessage): Promise<void> {
    await w.__toServer(JSON.stringify(message));
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** What a host enforces on an app that declares no domains: inline script and style, nothing fetched. */
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'none'; frame-src 'none'";

export interface Opened {
  uri: string;
  mimeType: string | undefined;
  toolMeta: unknown;
  payloadInResult: boolean;
}

const modelContext: unknown[] = [];
const openedLinks: string[] = [];

async function open(tool: string, args: Record<string, unknown>): Promise<Opened> {
  const client = new Client({ name: 'waymark-test-host', version: '1.0.0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } } });
  await client.connect(new PipeTransport());
  const { tools } = await client.listTools();
  const listed = tools.find((t) => t.name === tool);
  const uri = listed ? getToolUiResourceUri(listed) : undefined;
  if (!listed || !uri) throw new Error(`${tool} declares no UI resource`);
  const read = await client.readResource({ uri });
  const content = read.contents[0];
  const html = 'text' in content ? content.text : '';
  const result = await client.callTool({ name: tool, arguments: args });

  const frame = document.createElement('iframe');
  frame.id = 'app';
  frame.title = 'Waymark step form';
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  document.body.append(frame);
  const bridge = new AppBridge(client, { name: 'waymark-test-host', version: '1.0.0' }, { serverTools: {}, updateModelContext: { text: {} }, openLinks: {} }, { hostContext: { theme: 'light', displayMode: 'inline' } });
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  bridge.onopenlink = async ({ url }) => {
    openedLinks.push(url);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    modelContext.push(params);
    return {};
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: args });
    void bridge.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html.replace('<head>', `<head>\n<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  return { uri, mimeType: content.mimeType, toolMeta: listed._meta, payloadInResult: result._meta?.['waymark/step'] !== undefined };
}

w.host = { open, modelContext, openedLinks };
