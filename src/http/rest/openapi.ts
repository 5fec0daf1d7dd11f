/**
 * The OpenAPI 3.1 description of the REST interface, served at /api/v1/openapi.json. Error bodies are the
 * MCP tools' failure envelope; the codes come from the one error catalogue.
 */
import { z } from 'zod';
import { brand, version } from '../../config.js';
import { ERROR_CODES } from '../../errors.js';
import type { Operation, RestRoute } from '../../operations/operation.js';
import { REGISTRY, type Registry } from '../../operations/registry.js';
import { LIVE_OPENAPI_PATH } from '../live/live-route.js';
import { SESSION_COOKIE } from '../session/session.js';

const errorEnvelope = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'errorId', 'status'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string', description: 'What to do next.' },
        errorId: { type: 'string', description: 'Quote it when reporting a problem; it appears in the server log.' },
        status: { type: 'integer' },
        details: { type: 'object', additionalProperties: true },
      },
    },
  },
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without the `$schema` line of a whole document. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const success = (data: JsonSchema) => ({ type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } });

/** One path item per operation with a route: parameters, body and answer from the operation's own zod shapes. */
function operationItem(tool: Operation): [string, string, Record<string, unknown>] {
  const operation = tool.rest as RestRoute;
  const pathParams = [...operation.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
  const input = jsonSchema(tool.input, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const required = new Set(input.required ?? []);
  const parameters: Array<Record<string, unknown>> = pathParams.map((name) => ({ name, in: 'path', required: true, schema: input.properties?.[name] ?? { type: 'string' } }));
  let requestBody: Record<string, unknown> | undefined;
  const rest = Object.entries(input.properties ?? {}).filter(([name]) => !pathParams.includes(name));
  if (operation.method !== 'post') {
    for (const [name, schema] of rest) {
      const { description, ...valueSchema } = schema;
      parameters.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: valueSchema, ...(schema.type === 'array' ? { style: 'form', explode: true } : {}) });
    }
  } else {
    const body = { ...input, properties: Object.fromEntries(rest), required: [...required].filter((n) => !pathParams.includes(n)) };
    requestBody = { required: body.required.length > 0, content: { 'application/json': { schema: body } } };
  }
  const item = {
    operationId: operation.operationId,
    summary: tool.title,
    description: `${tool.description}${tool.mcp === false ? '' : ` (The MCP tool ${tool.name} does the same.)`}`,
    ...(tool.sessionOnly ? { security: [{ session: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '200': operation.file
        ? {
            description: `The file (${operation.file.name}); when it holds only the first part, a Link header (rel "next") names the request for the rest.`,
            content: { [operation.file.mediaType]: { schema: { type: 'string' } } },
          }
        : { description: 'Done.', content: { 'application/json': { schema: success(jsonSchema(tool.output, 'output')) } } },
      '401': { description: 'No token or session, or an ended one.' },
      '403': errorResponse(
        tool.sessionOnly
          ? 'FORBIDDEN: only the person\'s own web session may call this, never a Bearer token (details.required_credential "session"), or the CSRF header is missing or wrong (details.reason "csrf").'
          : 'FORBIDDEN: a capability or permission is missing (details name it), or the CSRF header of a session request is missing or wrong (details.reason "csrf").',
      ),
      '404': errorResponse('The record does not exist or is not the caller\'s to see.'),
      '409': errorResponse('A conflict with the record\'s state (TRAIL_NOT_RUNNING, HUMAN_REQUIRED, …).'),
      '422': errorResponse('VALIDATION_ERROR and the other input errors of the catalogue, with details.'),
      '500': errorResponse('INTERNAL_ERROR'),
    },
  };
  return [operation.path.replace(/:([a-z_]+)/g, '{$1}'), operation.method, item];
}

function operationPaths(registry: Registry): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of registry.rest) {
    const [path, method, item] = operationItem(operation);
    paths[path] = { ...paths[path], [method]: item };
  }
  return paths;
}

export function openApiDocument(registry: Registry = REGISTRY): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: `${brand} REST interface`,
      version,
      description: 'REST routes beside the MCP tools, over the same services: a Bearer token, or the web app\'s session cookie (its POST and DELETE requests then carry X-CSRF-Token).',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: `A ${brand} token (\`${brand} token create\`).` },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: `The web app's session, set by a sign-in link (\`${brand} signin-link create\`). A POST or DELETE made with it carries the header X-CSRF-Token (GET /me gives it).`,
        },
      },
      schemas: {
        ErrorEnvelope: errorEnvelope,
      },
    },
    paths: {
      ...operationPaths(registry),
      '/live': LIVE_OPENAPI_PATH,
      '/openapi.json': {
        get: {
          operationId: 'openApi',
          summary: 'This document',
          responses: { '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
    },
  };
}
