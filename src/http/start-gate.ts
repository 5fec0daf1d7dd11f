/**
 * The listener `serve` gives its server before the HTTP app exists (issue 24, finding 2). `serve` listens first,
 * so that with `--port 0` the app's URLs carry the port the system chose, and only then loads and builds the app
 * (Express, the OAuth server, the web app: a few hundred ms). A request that came in that gap used to find no
 * listener at all and was never answered; with `--workers N` a restarted worker did the same to live traffic.
 * Now such a request waits for the app, and `/healthz` says `starting` (503, Retry-After) until it is there, so a
 * readiness check can tell a starting process from a ready one. Small on purpose: `waymark stdio` never loads it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** Requests held while the app is built; past this many a request is answered 503 at once rather than held. */
const MAX_HELD = 1000;

export interface StartGate {
  listener: RequestListener;
  /** Hands every held request, and every later one, to `app`. */
  open(app: RequestListener): void;
}

function starting(res: ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

export function startGate(identity: Record<string, unknown>): StartGate {
  let app: RequestListener | null = null;
  const held: Array<[IncomingMessage, ServerResponse]> = [];
  return {
    listener(req, res) {
      if (app) return app(req, res);
      if (req.method === 'GET' && req.url === '/healthz') return starting(res, { status: 'starting', ...identity });
      if (held.length >= MAX_HELD) return starting(res, { status: 'starting', message: 'The server is starting; retry in a second.' });
      held.push([req, res]);
    },
    open(ready) {
      app = ready;
      for (const [req, res] of held.splice(0)) if (!res.destroyed) ready(req, res);
    },
  };
}
