/**
 * GET /api/v1/live (issue 27): a person's live updates as server-sent events (text/event-stream), authenticated as
 * every /api/v1 call is (the session cookie, or a Bearer token), events from the process's LiveHub. The app's
 * EventSource reconnects by itself after a stream ends (`retry`); a refusal is the API's JSON envelope.
 */
import { Router, type Request, type Response } from 'express';
import { errorBody, WaymarkError } from '../../errors.js';
import { assertAccess, RUN_ACCESS } from '../../services/actor.js';
import { actorOf } from '../session/bearer.js';
import { methodNotAllowed } from '../rest/router.js';
import type { LiveHub, LiveSink } from './live-hub.js';

/** How long the browser waits before reconnecting after a stream ends, in ms (the SSE `retry` field). */
const RECONNECT_MS = 3000;
/** Answered with a refusal for too many streams: when the app tries again. */
const RETRY_AFTER_SECONDS = 60;

function refuse(res: Response, error: WaymarkError): void {
  const body = errorBody(error);
  const wait = body.details?.retry_after_seconds;
  if (typeof wait === 'number') res.set('Retry-After', String(wait));
  res.status(body.status).json({ success: false, error: body });
}

const refusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

/** The stream as OpenAPI describes it (rest/openapi.ts): it is no operation of the registry, so it is written here. */
export const LIVE_OPENAPI_PATH = {
  get: {
    operationId: 'live',
    summary: 'Live updates for the caller (server-sent events)',
    description: [
      'A text/event-stream that stays open: `notifications` {unread_count, latest_id} on connecting and whenever the caller\'s unread count or newest notification changes;',
      '`inbox` {seq} when a trail the caller can see changed (read the inbox again). A comment line is sent as a heartbeat; the stream ends after a while and the client reconnects.',
    ].join(' '),
    responses: {
      '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      '401': refusal('UNAUTHENTICATED: no token or session.'),
      '403': refusal('FORBIDDEN: the token lacks the run capability.'),
      '429': refusal('TOO_MANY_REQUESTS: too many streams open for this person or this server; Retry-After says when to try again.'),
    },
  },
} as const;

export function liveRouter(hub: LiveHub): Router {
  const router = Router();
  router.get('/live', (req: Request, res: Response) => {
    const actor = actorOf(req.auth);
    if (!actor) {
      refuse(res, new WaymarkError('UNAUTHENTICATED', 'Sign in, or pass a token as Authorization: Bearer.'));
      return;
    }
    try {
      // What the inbox and the notification list need: live updates tell of nothing else.
      assertAccess(actor, RUN_ACCESS);
    } catch (error) {
      refuse(res, error as WaymarkError);
      return;
    }
    const sink: LiveSink = {
      write(event, data) {
        if (res.writableEnded) return;
        res.write(event === null ? `: ${String(data)}\n\n` : `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      end() {
        if (!res.writableEnded) res.end();
      },
    };
    const opened = hub.open({ accountId: actor.accountId, scopeId: actor.scopeId, principalId: actor.principalId }, sink);
    if ('refused' in opened) {
      refuse(res, new WaymarkError('TOO_MANY_REQUESTS', opened.message, { retry_after_seconds: opened.refused === 'closed' ? 1 : RETRY_AFTER_SECONDS }));
      return;
    }
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // nginx and some other proxies buffer answers unless told not to; an event must arrive when it is sent.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write(`retry: ${RECONNECT_MS}\n\n`);
    req.socket.setTimeout(0);
    res.on('close', opened.remove);
  });
  router.all('/live', methodNotAllowed('GET'));
  return router;
}
