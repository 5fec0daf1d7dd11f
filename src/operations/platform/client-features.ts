/**
 * What the client on the other end of a call can show a person (issue 14), as operations see it: the step form as
 * an MCP App, else form elicitation. The MCP door reads it from the client's capabilities
 * (mcp/apps/client-features.ts); describe_platform says it to the agent.
 */
import { z } from 'zod';

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
  'When start_trail, get_trail or advance_trail reaches a step for a person (human_required, or handed over) and the token is a person\'s, and every element of the step is text, a choice, a date or a tick box, the server first asks the person for the answers through a form (elicitation) and records them as submit_step_data would; declining or cancelling records nothing. Each step is asked once: calling again does not ask again until the trail moves or the step\'s answers change elsewhere (ask the person in the conversation instead).';
