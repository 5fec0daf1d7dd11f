/**
 * What the client on the other end of a request can show a person (issue 14): the step form as an MCP App
 * (ext-apps' `io.modelcontextprotocol/ui` extension with the mcp-app HTML profile), else form elicitation.
 * One reading of the client's capabilities, used by tools/list, the trail tools' results and describe_platform.
 */
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { z } from 'zod';
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type McpServer, type ServerContext } from '@modelcontextprotocol/server';

export interface ClientFeatures {
  /** The client renders `ui://` resources of the mcp-app profile: the trail tools point at the step form. */
  apps: boolean;
  /**
   * The client answers form elicitation and this connection can carry the request (a 2025-era connection
   * that sent initialize to this server instance: stdio, in-memory). Only where apps is false.
   */
  elicitation: boolean;
}

export const NO_FEATURES: ClientFeatures = { apps: false, elicitation: false };

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

/** What describe_platform says of the client, present only when it gets one of the two. */
export const clientFeaturesSchema = z
  .object({
    step_form: z.enum(['app', 'elicitation']),
    resource_uri: z.string().optional(),
    how: z.string(),
  })
  .describe('How this client shows a person a trail step (present only for clients with MCP Apps or form elicitation).');

export function describeClientFeatures(features: ClientFeatures, resourceUri: string): z.infer<typeof clientFeaturesSchema> | undefined {
  if (features.apps) {
    return {
      step_form: 'app',
      resource_uri: resourceUri,
      how: 'start_trail, get_trail, advance_trail and transfer_step declare the step form app: the client shows the current step as a form; the person\'s answers go through submit_step_data and advance_trail like any other.',
    };
  }
  if (features.elicitation) {
    return { step_form: 'elicitation', how: ELICITATION_NOTE };
  }
  return undefined;
}

/** The sentence the elicitation-capable client reads in the trail tools' descriptions and describe_platform. */
export const ELICITATION_NOTE =
  'When start_trail, get_trail or advance_trail reaches a step for a person (human_required, or handed over) and the token is a person\'s, and every element of the step is text, a choice, a date or a tick box, the server first asks the person for the answers through a form (elicitation) and records them as submit_step_data would; declining or cancelling records nothing.';
