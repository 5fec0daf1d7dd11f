import type { McpServer, ServerContext, StandardSchemaWithJSON, Tool as ListedTool } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { z } from 'zod';
import { errorBody, WaymarkError } from '../errors.js';
import { assertAccess, type Actor } from '../services/actor.js';
import { nextArrival } from '../services/arrivals.js';
import type { Services } from '../services/index.js';
import { clientFeatures, type ClientFeatures } from './apps/client-features.js';
import { withStepForm } from './apps/step-result.js';
import { envelopeSchema, errorResult, successResult } from './envelope.js';
import { outputJsonSchema, portableJsonSchema } from './json-schema.js';
import type { Tool } from '../operations/operation.js';

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

const schemasByTool = new WeakMap<Tool, { input: StandardSchemaWithJSON<Record<string, unknown>>; output: StandardSchemaWithJSON<Record<string, unknown>> }>();

function schemasOf(tool: Tool) {
  let schemas = schemasByTool.get(tool);
  if (!schemas) {
    schemas = { input: advertiseOnly(tool.input), output: advertiseOnly(envelopeSchema(tool.output)) };
    schemasByTool.set(tool, schemas);
  }
  return schemas;
}

/** The hints; the title is the tool's own `title` (which clients prefer to annotations.title), not sent twice. */
function annotationsOf(tool: Tool) {
  return { readOnlyHint: !tool.flags.W, destructiveHint: tool.flags.D, idempotentHint: tool.flags.I, openWorldHint: false };
}

/** The JSON Schema dialect the SDK converts to (its JSON_SCHEMA_CONVERSION_TARGET). */
const TARGET = { target: 'draft-2020-12' } as const;

/**
 * A tool's tools/list entry, as the SDK would build it from the registration below (the snapshot test reads
 * it through the SDK client): built once per process and served as it is, instead of per request.
 */
export function toolListing(tool: Tool): ListedTool {
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
  tool: Tool,
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
      const started = performance.now();
      // Over HTTP the request was stamped at the door already (app.ts); over stdio and in memory it arrives here.
      const arrival = nextArrival();
      try {
        const resolved = await resolveActor(ctx);
        const actor = resolved && { ...resolved, arrival: resolved.arrival ?? arrival };
        if (!actor) throw new WaymarkError('UNAUTHENTICATED', 'No valid token: pass a Waymark token (Authorization: Bearer over HTTP, WAYMARK_TOKEN over stdio).');
        // The one place that enforces each tool's declared access, except where the service must first
        // find the records (ToolAccess.afterLookup).
        if (!tool.access.afterLookup) assertAccess(actor, tool.access);
        const client = featuresOf(ctx);
        const answered = await tool.execute({ actor, services, client }, args);
        const shown = await withStepForm(tool.name, answered, { actor, services, features: client, elicit: (params) => ctx.mcpReq.elicitInput(params) });
        logger.debug({ tool: tool.name, ms: Math.round(performance.now() - started) }, 'tool call');
        return successResult(shown.data, shown.meta);
      } catch (error) {
        const body = errorBody(error);
        const line = { tool: tool.name, errorId: body.errorId, code: body.code, status: body.status };
        if (body.code === 'INTERNAL_ERROR') logger.error({ ...line, err: error }, 'tool call failed');
        else logger.info(line, 'tool call refused');
        return errorResult(body);
      }
    },
  );
}
