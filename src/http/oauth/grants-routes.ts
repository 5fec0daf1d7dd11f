/**
 * REST for a person's OAuth grants and tokens under /api/v1/oauth (issue 12): the apps they let act as them,
 * and revoking one (with every token issued under it); their own `waymark token` API keys, and revoking one.
 * Answers in the /api/v1 envelope; the caller sees only its own principal's grants and tokens.
 *
 * Only the person's own web session (its cookie, with the CSRF check of every /api/v1 write) manages them
 * (issue 24, finding 4): a Bearer token, an app's access token or an API key, is a credential the person
 * handed to software, and software must not list the person's other keys nor revoke another app's access.
 */
import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { errorBody, WaymarkError } from '../../errors.js';
import type { Actor } from '../../services/actor.js';
import type { Services } from '../../services/index.js';
import { actorOf } from '../session/bearer.js';
import { isSessionAuth } from '../session/session.js';
import { methodNotAllowed } from '../rest/router.js';

export function grantsRouter(services: Services, logger: Logger): Router {
  const router = Router();
  const route = (handler: (actor: Actor, req: Request) => Promise<unknown>) => async (req: Request, res: Response) => {
    try {
      const actor = actorOf(req.auth);
      if (!actor) throw new WaymarkError('UNAUTHENTICATED', 'No valid token: pass a Waymark token as Authorization: Bearer.');
      if (!isSessionAuth(req.auth)) {
        throw new WaymarkError('FORBIDDEN', 'API keys and connected apps are managed only from your own web session: open the connected-apps page (/oauth/grants) after signing in with a sign-in link; a Bearer token cannot do it.', { required_credential: 'session' });
      }
      res.status(200).json({ success: true, data: await handler(actor, req) });
    } catch (error) {
      const body = errorBody(error);
      if (body.code === 'INTERNAL_ERROR') logger.error({ route: req.path, errorId: body.errorId, err: error }, 'rest call failed');
      res.status(body.status).json({ success: false, error: body });
    }
  };
  router
    .route('/grants')
    .get(route(async (actor) => ({ grants: await services.oauth.listGrants(actor) })))
    .all(methodNotAllowed('GET'));
  router
    .route('/grants/:grant_id')
    .delete(route((actor, req) => services.oauth.revokeGrant(actor, String(req.params.grant_id))))
    .all(methodNotAllowed('DELETE'));
  router
    .route('/tokens')
    .get(route(async (actor) => ({ tokens: await services.auth.listOwnTokens(actor) })))
    .all(methodNotAllowed('GET'));
  router
    .route('/tokens/:token_id')
    .delete(route(async (actor, req) => {
      const tokenId = String(req.params.token_id);
      const { revokedAt } = await services.auth.revokeToken(tokenId, actor);
      return { token_id: tokenId, revoked_at: revokedAt };
    }))
    .all(methodNotAllowed('DELETE'));
  return router;
}
