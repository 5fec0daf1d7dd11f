import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { WaymarkError } from '../errors.js';
import { errorBody } from '../mcp/envelope.js';
import type { Services } from '../services/index.js';
import { storableInput } from '../mcp/tool.js';
import { assertAccess, type Access, type Actor } from '../services/actor.js';
import { actorOf } from './app.js';

type Handler = (actor: Actor, req: Request) => Promise<unknown>;

/**
 * REST under /api/v1: thin routes over the same services as the MCP tools. Access is checked by the same
 * function the tools use; answers and errors use the tools' envelopes, with the error's status as HTTP status.
 */
export function restRouter(services: Services, logger: Logger): Router {
  const router = Router();

  const route = (access: Access, handler: Handler) => async (req: Request, res: Response, _next: NextFunction) => {
    try {
      const actor = actorOf(req.auth);
      if (!actor) throw new WaymarkError('UNAUTHENTICATED', 'No valid token: pass a Waymark token as Authorization: Bearer.');
      assertAccess(actor, access);
      res.status(200).json({ success: true, data: await handler(actor, req) });
    } catch (error) {
      const body = errorBody(error);
      const line = { route: req.path, errorId: body.errorId, code: body.code, status: body.status };
      if (body.code === 'INTERNAL_ERROR') logger.error({ ...line, err: error }, 'rest call failed');
      else logger.info(line, 'rest call refused');
      res.status(body.status).json({ success: false, error: body });
    }
  };

  router.post(
    '/bits/:bit_id/restore',
    route({ capability: 'author', permission: 'edit' }, (actor, req) => services.bitRestore.restore(actor, { bit_id: String(storableInput(String(req.params.bit_id))) })),
  );

  return router;
}
