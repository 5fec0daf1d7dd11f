/**
 * Request rates (issue 24, "a tenant gets a fair share"): per token and per account on the routes that take a
 * token (/mcp, /api/v1), per network address on those that take none (sign-in, OAuth), counted across every
 * server process on the store (services/shared-counters.ts: in memory per call, added to the store every 200 ms),
 * so four processes allow an account its rate, not four times it. A refused request costs a header check and a
 * counter: it is answered before its body is read (or, for a small MCP body, before anything of it runs), so one
 * account at its limit leaves the others' calls as they were.
 *
 * Every answer on these routes carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy` names the quotas, `RateLimit` what is left of the nearest one and when it resets; a refusal
 * is 429 with `Retry-After`. A tool call over MCP is answered in the tool envelope instead (TOO_MANY_REQUESTS with
 * details.retry_after_seconds), which is what an agent reads; any other MCP message gets the 429.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { errorBody, WaymarkError } from '../errors.js';
import { errorResult } from '../mcp/envelope.js';
import type { Quotas } from '../quotas.js';
import type { Count, SharedCounters } from '../services/shared-counters.js';
import { actorOf } from './session/bearer.js';
import { addressKey } from './client-address.js';
import { isSessionAuth } from './session/session.js';

interface Policy {
  /** The policy's name in the RateLimit fields and the refusal's details (`requests_per_<name>`). */
  name: 'token' | 'account' | 'address' | 'registration';
  quota: number;
  windowSeconds: number;
  /** Counts a request of `key` (its credential, account or address) under this policy, in every process. */
  consume(key: string): Promise<RateLimiterRes>;
  /** What this process knows of `key`'s count, asking no one. */
  peek(key: string): RateLimiterRes | undefined;
}

interface Verdict {
  policy: Policy;
  left: RateLimiterRes;
  refused: boolean;
}

function policy(counters: SharedCounters, name: Policy['name'], quota: number, windowSeconds: number): Policy | null {
  if (quota <= 0) return null;
  const result = (count: Count) => new RateLimiterRes(quota - count.used, Math.max(0, count.resetsAt - Date.now()), count.used);
  return {
    name,
    quota,
    windowSeconds,
    consume: async (key) => result(await counters.consume(`rate:${name}:${key}`, windowSeconds * 1000)),
    peek: (key) => {
      const count = counters.peek(`rate:${name}:${key}`);
      return count && result(count);
    },
  };
}

/** Counts one request under each policy in turn, stopping at the first that refuses it. */
async function consume(steps: Array<[Policy | null, string]>): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const [p, key] of steps) {
    if (!p) continue;
    const left = await p.consume(key);
    const refused = left.consumedPoints > p.quota;
    verdicts.push({ policy: p, left, refused });
    if (refused) break;
  }
  return verdicts;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The RateLimit fields of a request's verdicts: every policy, and what is left of the nearest (or the refusing) one. */
function setFields(res: Response, verdicts: Verdict[]): Verdict | undefined {
  if (verdicts.length === 0) return undefined;
  res.set('RateLimit-Policy', verdicts.map((v) => `"${v.policy.name}";q=${v.policy.quota};w=${v.policy.windowSeconds}`).join(', '));
  const nearest = verdicts.find((v) => v.refused) ?? verdicts.reduce((a, b) => (b.left.remainingPoints / b.policy.quota < a.left.remainingPoints / a.policy.quota ? b : a));
  res.set('RateLimit', `"${nearest.policy.name}";r=${Math.max(0, nearest.left.remainingPoints)};t=${seconds(nearest.left.msBeforeNext)}`);
  if (!nearest.refused) return undefined;
  res.set('Retry-After', String(seconds(nearest.left.msBeforeNext)));
  return nearest;
}

function refusal(v: Verdict): WaymarkError {
  const wait = seconds(v.left.msBeforeNext);
  const whose = v.policy.name === 'token' ? 'This token' : v.policy.name === 'account' ? 'This account' : 'Your address';
  const what = v.policy.name === 'registration' ? 'client registrations' : 'requests';
  return new WaymarkError('TOO_MANY_REQUESTS', `${whose} has made its ${v.policy.quota} ${what} of the last ${v.policy.windowSeconds} s; retry in ${wait} s.${v.policy.name === 'registration' ? ' A client registers once and keeps its client_id.' : ''}`, {
    limit: `requests_per_${v.policy.name}`,
    max: v.policy.quota,
    window_seconds: v.policy.windowSeconds,
    retry_after_seconds: wait,
  });
}

/** The per-token key of a credential: a hash of the bearer token (never the token), or the person's web session. */
export function credentialKey(auth: AuthInfo): string {
  return isSessionAuth(auth) ? `session:${auth.clientId}` : bearerKey(auth.token);
}

function bearerKey(secret: string): string {
  return `token:${createHash('sha256').update(secret).digest('base64url').slice(0, 22)}`;
}

/** MCP bodies up to this size are read to answer a refused tool call in its envelope; larger ones are not read. */
const ENVELOPE_BODY_BYTES = 64 * 1024;

export interface RateLimits {
  /**
   * For /api/v1 and /mcp: first `early`, before the token is looked up (a bearer token already past its rate is
   * refused from a hash of its header, without a query), then `counted`, after authentication, which counts the
   * request against its token and its account.
   */
  rest: { early: RequestHandler; counted: RequestHandler };
  /** `readBody` is the route's own body reader: a small refused tool call is read to answer it in its envelope. */
  mcp(readBody: RequestHandler): { early: RequestHandler; counted: RequestHandler };
  /** For the routes that take no token, per network address (req.ip). */
  anonymous: RequestHandler;
  /** For dynamic client registration, per network address, per hour. */
  registration: RequestHandler;
}

type Refuse = (req: Request, res: Response, refused: Verdict) => void;

/**
 * A refusal is answered after this long. A client that ignores Retry-After and calls again as soon as it is
 * answered (an agent in a loop) otherwise keeps the event loop every account shares busy with refusals: two such
 * clients doubled another account's get_bit on PostgreSQL, whose few round trips each waited behind them. Held,
 * the refusal costs a socket and a timer, no CPU, and such a client makes ten calls a second, not hundreds.
 */
const REFUSAL_DELAY_MS = 100;

function refuseLater(refuse: Refuse, req: Request, res: Response, refused: Verdict): void {
  setTimeout(() => {
    if (!res.writableEnded && !res.destroyed) refuse(req, res, refused);
  }, REFUSAL_DELAY_MS);
}

const refuseRest: Refuse = (_req, res, refused) => {
  res.status(429).json({ success: false, error: errorBody(refusal(refused)) });
};

function refuseMcp(readBody: RequestHandler): Refuse {
  return (req, res, refused) => {
    const error = errorBody(refusal(refused));
    const rpcRefusal = () => res.status(429).json({ jsonrpc: '2.0', error: { code: -32000, message: error.message, data: error.details }, id: null });
    const declared = Number(req.headers['content-length']);
    if (!(declared > 0 && declared <= ENVELOPE_BODY_BYTES)) return rpcRefusal();
    readBody(req, res, () => {
      const message = req.body as { method?: unknown; id?: unknown } | undefined;
      const id = message && !Array.isArray(message) ? message.id : undefined;
      if (message?.method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return rpcRefusal();
      // What the model reads: the tool's envelope, with the code and the wait (HTTP 200, as every tool answer).
      res.status(200).json({ jsonrpc: '2.0', id, result: errorResult(error) });
    });
  };
}

export function rateLimits(quotas: Quotas, counters: SharedCounters): RateLimits {
  const token = policy(counters, 'token', quotas.requestsPerToken, quotas.windowSeconds);
  const account = policy(counters, 'account', quotas.requestsPerAccount, quotas.windowSeconds);
  const address = policy(counters, 'address', quotas.anonymousPerAddress, quotas.windowSeconds);
  const registration = policy(counters, 'registration', quotas.registrationsPerAddress, 3600);

  /** A bearer token already past its rate, from its header alone: the flood of a token at its limit costs no query. */
  const early = (refuse: Refuse): RequestHandler => async (req, res, next) => {
    try {
      const header = req.headers.authorization;
      if (!token || !header?.startsWith('Bearer ')) return next();
      const used = token.peek(bearerKey(header.slice(7).trim()));
      if (!used || used.consumedPoints < token.quota) return next();
      refuseLater(refuse, req, res, setFields(res, [{ policy: token, left: new RateLimiterRes(0, used.msBeforeNext, used.consumedPoints), refused: true }]) as Verdict);
    } catch (error) {
      next(error);
    }
  };
  /** Counts an authenticated request; the actor learns its credential key (per-token thread quotas) and its arrival on the way. */
  const counted = (refuse: Refuse): RequestHandler => async (req, res, next) => {
    try {
      const auth = (req as Request & { auth?: AuthInfo }).auth;
      const actor = actorOf(auth);
      if (!auth || !actor) return next();
      actor.credential ??= credentialKey(auth);
      // The request's arrival, stamped at the door (app.ts), for the calls that care about order (trails/moves.ts).
      if (typeof res.locals.arrival === 'number') actor.arrival = res.locals.arrival;
      const refused = setFields(res, await consume([[token, actor.credential], [account, actor.accountId]]));
      if (!refused) return next();
      refuseLater(refuse, req, res, refused);
    } catch (error) {
      next(error);
    }
  };
  const perAddress = (p: Policy | null): RequestHandler => async (req, res, next) => {
    try {
      const refused = setFields(res, await consume([[p, addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown')]]));
      if (!refused) return next();
      // These doors are OAuth's and the sign-in link's: the refusal in OAuth's error shape (RFC 6749, 5.2).
      const { message, details } = refusal(refused);
      refuseLater(() => res.status(429).set('Cache-Control', 'no-store').json({ error: 'temporarily_unavailable', error_description: message, ...details }), req, res, refused);
    } catch (error) {
      next(error);
    }
  };

  return {
    rest: { early: early(refuseRest), counted: counted(refuseRest) },
    mcp: (readBody) => ({ early: early(refuseMcp(readBody)), counted: counted(refuseMcp(readBody)) }),
    anonymous: perAddress(address),
    registration: (req, res, next) => (req.method === 'POST' ? perAddress(registration)(req, res, next) : next()),
  };
}
