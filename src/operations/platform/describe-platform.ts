import { z } from 'zod';
import { brand, capabilityName, nodeScheme, version } from '../../config.js';
import { describeBodySyntax, describeElements, describeSlateModel } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { ERROR_CODES } from '../../errors.js';
import { describeQuotas } from '../../quotas.js';
import { hasAccess } from '../../services/actor.js';
import { describeClientFeatures } from './client-features.js';
import { STEP_APP_URI } from './step-meta.js';
import { describeHistory } from '../events/describe-history.js';
import { describeAssignment } from '../trails/describe-assignment.js';
import { defineOperation, flagText, type Operation } from '../operation.js';
import { ANY_TOKEN_ACCESS } from '../../services/actor.js';

/**
 * describe_platform: an agent's manual, generated from the definitions the server enforces (the tool
 * declarations, the limits, the error catalogue, the element registry) and never written a second time.
 */
export function describePlatformTool(allTools: () => readonly Operation[]) {
  return defineOperation({
    name: 'describe_platform',
    title: 'Describe the platform',
    description:
      'Call it first: your permissions, the tools you may call, every limit, the body syntax, the element types with their props and answers, and the error codes with what to do.',
    flags: { W: false, D: false, I: true },
    access: ANY_TOKEN_ACCESS,
    input: z.strictObject({}),
    output: z.object({
      brand: z.string(),
      version: z.string(),
      account: z.object({ account_id: z.string(), name: z.string().nullable() }),
      principal: z.object({ principal_id: z.string(), kind: z.string(), permission: z.string(), scope_id: z.string().nullable() }),
      capabilities: z.array(z.string()),
      capability_names: z.object({ author: z.string(), read: z.string(), run: z.string() }),
      anchor_scheme: z.string(),
      limits: z.record(z.string(), z.number()),
      quotas: z.record(z.string(), z.number()).describe('Per token and per account; 0 is no limit. requests_* hold across all server processes, concurrent_* and waiting_* per process (N processes: N times). Past one: TOO_MANY_REQUESTS with details.retry_after_seconds.'),
      tools: z.array(z.object({ name: z.string(), flags: z.string(), capability: z.string(), permission: z.string(), allowed: z.boolean() })),
      body_syntax: z.array(z.object({ construct: z.string(), form: z.string(), notes: z.string().optional() })),
      slate: z.object({ text: z.string(), nodes: z.record(z.string(), z.string()), holds: z.record(z.string(), z.string()), example: z.array(z.unknown()) }),
      element_types: z.array(
        z.object({
          type: z.string(),
          step_type: z.string().nullable(),
          summary: z.string(),
          has_label: z.boolean(),
          markdown: z.string(),
          item_markdown: z.string().optional(),
          allowed_props: z.array(z.string()),
          required_props: z.array(z.string()),
          props_schema: z.record(z.string(), z.unknown()),
          item_schema: z.record(z.string(), z.unknown()).optional(),
          answer_schema: z.record(z.string(), z.unknown()).nullable(),
          answer_rule: z.string(),
        }),
      ),
      history: z.array(z.string()),
      trails: z.array(z.string()),
      error_codes: z.array(z.object({ code: z.string(), status: z.number(), when: z.string() })),
    }),
    async run({ actor, services, client }) {
      return {
        brand,
        version,
        account: { account_id: actor.accountId, name: await services.auth.accountName(actor.accountId) },
        principal: { principal_id: actor.principalId, kind: actor.kind, permission: actor.permission, scope_id: actor.scopeId },
        capabilities: actor.capabilities,
        capability_names: { author: capabilityName('author'), read: capabilityName('read'), run: capabilityName('run') },
        anchor_scheme: `${nodeScheme}:`,
        limits: { ...LIMITS },
        quotas: describeQuotas(),
        tools: allTools().map((t) => ({
          name: t.name,
          flags: flagText(t.flags),
          capability: t.access.capability === 'any' ? 'any' : capabilityName(t.access.capability),
          permission: t.access.permission,
          allowed: hasAccess(actor, t.access),
        })),
        body_syntax: describeBodySyntax(),
        slate: describeSlateModel(),
        element_types: describeElements(),
        history: describeHistory(),
        trails: describeAssignment(),
        error_codes: Object.entries(ERROR_CODES).map(([code, { status, when }]) => ({ code, status, when })),
        // Only for a client that gets the step form (app or elicitation); its tools/list declares the field.
        ...withClientFeatures(client ? describeClientFeatures(client, STEP_APP_URI) : undefined),
      };
    },
  });
}

function withClientFeatures(features: ReturnType<typeof describeClientFeatures>) {
  return features ? { client_features: features } : {};
}
