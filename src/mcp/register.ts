import type { McpServer, ServerContext, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { z } from 'zod';
import { capabilityName } from '../config.js';
import { WaymarkError } from '../errors.js';
import { permissionAtLeast, type Actor } from '../services/actor.js';
import type { Services } from '../services/index.js';
import { envelopeSchema, errorBody, errorResult, successResult } from './envelope.js';
import type { Tool, ToolAccess } from './tool.js';

export type ActorResolver = (ctx: ServerContext) => Promise<Actor | null>;

/**
 * The SDK validates arguments itself and answers a failure as bare text. Every tool must answer
 * VALIDATION_ERROR in our envelope instead, so the SDK gets a schema that advertises the real JSON
 * Schema in tools/list but passes every value through; the handler then validates with zod.
 */
function advertiseOnly(schema: z.ZodObject): StandardSchemaWithJSON<Record<string, unknown>> {
  const standard = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: 'waymark',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: standard.jsonSchema,
    },
  };
}

/** The one place that enforces each tool's declared capability and permission (CONTRACT.md). */
export function assertAccess(actor: Actor, access: ToolAccess): void {
  if (access.capability !== 'any') {
    const accepted = access.capability === 'read' ? [capabilityName('read'), capabilityName('author')] : [capabilityName(access.capability)];
    if (!accepted.some((c) => actor.capabilities.includes(c))) {
      throw new WaymarkError('FORBIDDEN', `This token lacks the capability ${accepted[0]}; ask for a token that carries it.`, {
        required_capability: accepted[0],
      });
    }
  }
  if (!permissionAtLeast(actor.permission, access.permission)) {
    throw new WaymarkError('FORBIDDEN', `This tool needs permission ${access.permission}; the token's principal has ${actor.permission}.`, {
      required_permission: access.permission,
    });
  }
}

export function registerTool(server: McpServer, tool: Tool, services: Services, resolveActor: ActorResolver, logger: Logger): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: advertiseOnly(tool.input),
      outputSchema: envelopeSchema(tool.output),
      annotations: {
        title: tool.title,
        readOnlyHint: !tool.flags.W,
        destructiveHint: tool.flags.D,
        idempotentHint: tool.flags.I,
        openWorldHint: false,
      },
    },
    async (args: Record<string, unknown>, ctx: ServerContext) => {
      const started = performance.now();
      try {
        const actor = await resolveActor(ctx);
        if (!actor) throw new WaymarkError('UNAUTHENTICATED', 'No valid token: pass a Waymark token (Authorization: Bearer over HTTP, WAYMARK_TOKEN over stdio).');
        assertAccess(actor, tool.access);
        const data = await tool.execute({ actor, services }, args);
        logger.debug({ tool: tool.name, ms: Math.round(performance.now() - started) }, 'tool call');
        return successResult(data);
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
