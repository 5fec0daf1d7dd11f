import type { McpServer, ServerContext, StandardSchemaWithJSON, Tool as ListedTool } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Actor } from '../services/actor.js';
import { dispatch } from '../operations/dispatch.js';
import type { Services } from '../services/index.js';
import { clientFeatures } from './apps/client-features.js';
import type { ClientFeatures } from '../operations/platform/client-features.js';
import { askedStepsOf } from './apps/asked-steps.js';
import { withStepForm } from './apps/step-result.js';
import { envelopeSchema, errorResult, successResult } from './envelope.js';
import { outputJsonSchema, portableJsonSchema } from './json-schema.js';
import type { Operation } from '../operations/operation.js';

export type ActorResolver = (ctx: ServerContext) => Promise<Actor | null>;

type JsonSchemaOf = (options: { target: string }) => Record<string, unknown>;

/**
 * A tool's schemas as the SDK takes them, built once per process: every HTTP request gets a fresh server
 * (stateless serving), and converting 27 tools' zod schemas to JSON Schema on every `tools/list` and call
 * was most of what a request cost.
 *
 * The SDK validates arguments itself and answers a failure as bare text. Every tool must answer
 * VALIDATION_ERROR in our envelope instead, so the SDK gets a schema that advertises the real JSON Schema
 * in tools/list but passes every value through; the handler then validates with zod. Output is ours and
 * is not validated again on the way out: the test suite's SDK client checks every answer against it.
 */
function advertiseOnly(schema: z.ZodType): StandardSchemaWithJSON<Record<string, unknown>> {
  const standard = schema['~standard'] as unknown as { jsonSchema: { input: JsonSchemaOf; output: JsonSchemaOf } };
  const cache = new Map<string, Record<string, unknown>>();
  const once = (io: 'input' | 'output'): JsonSchemaOf => (options) => {
    const key = `${io}:${options.target}`;
    let json = cache.get(key);
    if (!json) {
      json = io === 'output' ? outputJsonSchema(standard.jsonSchema[io](options)) : portableJsonSchema(standard.jsonSchema[io](options));
      cache.set(key, json);
    }
    return json;
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'waymark',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: once('input'), output: once('output') },
    },
  } as StandardSchemaWithJSON<Record<string, unknown>>;
}

const schemasByTool = new WeakMap<Operation, { input: StandardSchemaWithJSON<Record<string, unknown>>; output: StandardSchemaWithJSON<Record<string, unknown>> }>();

function schemasOf(tool: Operation) {
  let schemas = schemasByTool.get(tool);
  if (!schemas) {
    schemas = { input: advertiseOnly(tool.input), output: advertiseOnly(envelopeSchema(tool.output)) };
    schemasByTool.set(tool, schemas);
  }
  return schemas;
}

/** The hints; the title is the tool's own `title` (which clients prefer to annotations.title), not sent twice. */
function annotationsOf(tool: Operation) {
  return { readOnlyHint: !tool.flags.W, destructiveHint: tool.flags.D, idempotentHint: tool.flags.I, openWorldHint: false };
}

/** The JSON Schema dialect the SDK converts to (its JSON_SCHEMA_CONVERSION_TARGET). */
const TARGET = { target: 'draft-2020-12' } as const;

/**
 * A tool's tools/list entry, as the SDK would build it from the registration below (the snapshot test reads
 * it through the SDK client): built once per process and served as it is, instead of per request.
 */
export function toolListing(tool: Operation): ListedTool {
  const schemas = schemasOf(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { ...schemas.input['~standard'].jsonSchema.input(TARGET), type: 'object' },
    annotations: annotationsOf(tool),
    outputSchema: schemas.output['~standard'].jsonSchema.output(TARGET) as ListedTool['outputSchema'],
  };
}

export function registerTool(
  server: McpServer,
  tool: Operation,
  services: Services,
  resolveActor: ActorResolver,
  logger: Logger,
  featuresOf: (ctx: ServerContext) => ClientFeatures = (ctx) => clientFeatures(server, ctx),
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: schemasOf(tool).input,
      outputSchema: schemasOf(tool).output,
      annotations: annotationsOf(tool),
    },
    async (args: Record<string, unknown>, ctx: ServerContext) => {
      const outcome = await dispatch(tool, {
        door: 'mcp',
        caller: () => resolveActor(ctx),
        services,
        logger,
        client: featuresOf(ctx),
        present: (operation, data, call) => withStepForm(operation, data, { ...call, asked: askedStepsOf(server), elicit: (params) => ctx.mcpReq.elicitInput(params) }),
      }, args);
      return outcome.ok ? successResult(outcome.data, outcome.meta) : errorResult(outcome.error);
    },
  );
}
