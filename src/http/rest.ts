import { Router } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';

/** REST under /api/v1: thin routes over the same services as the MCP tools. */
export function restRouter(_services: Services, _logger: Logger): Router {
  const router = Router();
  return router;
}
