/**
 * The OpenAPI 3.1 description of the REST interface, served at /api/v1/openapi.json. Error bodies are the
 * MCP tools' failure envelope; the codes come from the one error catalogue.
 */
import { brand, version } from '../config.js';
import { ERROR_CODES } from '../errors.js';

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

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: `${brand} REST interface`,
      version,
      description: 'REST routes beside the MCP tools, over the same services and bearer tokens.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: `A ${brand} token (\`${brand} token create\`).` } },
      schemas: {
        ErrorEnvelope: errorEnvelope,
        RestoredBit: {
          type: 'object',
          required: ['success', 'data'],
          properties: {
            success: { const: true },
            data: {
              type: 'object',
              required: ['bit_id', 'status', 'last_modified_date_time_utc', 'was_already_active'],
              properties: {
                bit_id: { type: 'string', format: 'uuid' },
                status: { const: 'active' },
                last_modified_date_time_utc: { type: 'string', format: 'date-time' },
                was_already_active: { type: 'boolean', description: 'true when the bit was active already: nothing changed.' },
              },
            },
          },
        },
      },
    },
    paths: {
      '/bits/{bit_id}/restore': {
        post: {
          operationId: 'restoreBit',
          summary: 'Restore an archived bit',
          description: `Sets an archived bit active again and advances its last_modified_date_time_utc. The connections the archive cleared are not restored. Needs the capability ${brand}.author and permission Edit. Restoring an active bit changes nothing.`,
          parameters: [{ name: 'bit_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The bit is active.', content: { 'application/json': { schema: { $ref: '#/components/schemas/RestoredBit' } } } },
            '401': { description: 'No token, or a wrong or expired one (WWW-Authenticate names the resource metadata).' },
            '403': errorResponse('FORBIDDEN: the token lacks the author capability or Edit permission, or may write only in another scope.'),
            '404': errorResponse('BIT_NOT_FOUND: no such bit, or not the caller\'s to see.'),
            '500': errorResponse('INTERNAL_ERROR'),
          },
        },
      },
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
