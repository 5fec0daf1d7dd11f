/**
 * What the client on the other end of a request can show a person (issue 14): the step form as an MCP App
 * (ext-apps' `io.modelcontextprotocol/ui` extension with the mcp-app HTML profile), else form elicitation.
 * One reading of the client's capabilities, used by tools/list, the trail tools' results and describe_platform.
 */
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { NO_FEATURES, type ClientFeatures } from '../../operations/platform/client-features.js';


/**
 * The capabilities of the request's client: on the 2026-07-28 era each request carries them in its `_meta`
 * envelope; on a 2025-era connection they are those `initialize` declared. Over stateless HTTP a 2025-era
 * client's later requests reach servers that saw no initialize: `remembered` is what the HTTP route kept of
 * that client's initialize. `push`: the server can send the client a request (elicitation) on this connection.
 */
function capabilitiesOf(server: McpServer, ctx: ServerContext, remembered: ClientCapabilities | undefined): { capabilities: ClientCapabilities | undefined; push: boolean } {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (declared) return { capabilities: declared, push: false };
  // getClientCapabilities is deprecated for the 2026 era only; on a 2025 connection it is the one source.
  const initialized = server.server.getClientCapabilities();
  if (initialized) return { capabilities: initialized, push: true };
  // A stateless request's answer to a server request would reach another server instance: no elicitation.
  return { capabilities: remembered, push: false };
}

export function clientFeatures(server: McpServer, ctx: ServerContext, remembered?: ClientCapabilities): ClientFeatures {
  const { capabilities, push } = capabilitiesOf(server, ctx, remembered);
  return featuresOfCapabilities(capabilities, push);
}

/** What a client that declared `capabilities` can show; `push`: a server request can reach it on this connection. */
export function featuresOfCapabilities(capabilities: ClientCapabilities | undefined, push: boolean): ClientFeatures {
  if (!capabilities) return NO_FEATURES;
  const apps = getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
  // An empty elicitation object means form mode (the spec's backwards-compatible default).
  const elicit = capabilities.elicitation;
  const form = elicit !== undefined && (elicit.form !== undefined || elicit.url === undefined);
  // The 2026-07-28 era has no server→client request: elicitation there is an input_required result, which
  // would re-run the tool (and start a second trail); the fallback is offered where a request can be pushed.
  return { apps, elicitation: !apps && form && push };
}
