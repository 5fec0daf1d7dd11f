/**
 * Request rates (issue 24, "a tenant gets a fair share"): per token and per account on the routes that take a
 * token (/mcp, /api/v1), per network address on those that take none (sign-in, OAuth), counted by
 * rate-limiter-flexible in this process's memory (quotas.ts says why per process). A refused request costs a
 * header check and a counter: it is answered before its body is read (or, for a small MCP body, before anything
 * of it runs), so one account at its limit leaves the others' calls as they were.
 *
 * Every answer on these routes carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy` names the quotas, `RateLimit` what is left of the nearest one and when it resets; a refusal
 * is 429 with `Retry-After`. A tool call over MCP is answered in the tool envelope instead (TOO_MANY_REQUESTS with
 * details.retry_after_seconds), which is what an agent reads; any other MCP message gets the 429.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { errorBody, WaymarkError } from '../errors.js';
import { errorResult } from '../mcp/envelope.js';
import type { Quotas } from '../quotas.js';
import { actorOf } from './bearer.js';

interface Policy {
  /** The policy's name in the RateLimit fields and the refusal's details (`requests_per_<name>`). */
  name: 'token' | 'account' | 'address' | 'registration';
  quota: number;
  windowSeconds: number;
  limiter: RateLimiterMemory;
}

interface Verdict {
  policy: Policy;
  left: RateLimiterRes;
  refused: boolean;
}

function policy(name: Policy['name'], quota: number, windowSeconds: number): Policy | null {
  if (quota <= 0) return null;
  return { name, quota, windowSeconds, limiter: new RateLimiterMemory({ keyPrefix: name, points: quota, duration: windowSeconds }) };
}

/** Counts one request under each policy in turn, stopping at the first that refuses it. */
async function consume(steps: Array<[Policy | null, string]>): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const [p, key] of steps) {
    if (!p) continue;
    try {
      verdicts.push({ policy: p, left: await p.limiter.consume(key), refused: false });
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      verdicts.push({ policy: p, left: outcome, refused: true });
      break;
    }
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
  const whose = v.policy.name === 'token' ? 'This token' : v.policy.name === 'account' ? 'This account' : 'This address';
  return new WaymarkError('TOO_MANY_REQUESTS', `${whose} has made its ${v.policy.quota} requests of the last ${v.policy.windowSeconds} s; retry in ${wait} s.`, {
    limit: `requests_per_${v.policy.name}`,
    max: v.policy.quota,
    window_seconds: v.policy.windowSeconds,
    retry_after_seconds: wait,
  });
}

/** The per-token key of a credential: a hash of the bearer token (never the token), or the person's web session. */
export function credentialKey(auth: AuthInfo): string {
  if (auth.token === 'session') return `session:${auth.clientId}`;
  return `token:${createHash('sha256').update(auth.token).digest('base64url').slice(0, 22)}`;
}

/** MCP bodies up to this size are read to answer a refused tool call in its envelope; larger ones are not read. */
const ENVELOPE_BODY_BYTES = 64 * 1024;

export interface RateLimits {
  /** For /api/v1, after its authentication. */
  rest: RequestHandler;
  /** For /mcp, after the bearer check and before the body is read; `readBody` is the route's own body reader. */
  mcp(readBody: RequestHandler): RequestHandler;
  /** For the routes that take no token, per network address (req.ip). */
  anonymous: RequestHandler;
  /** For dynamic client registration, per network address, per hour. */
  registration: RequestHandler;
}

export function rateLimits(quotas: Quotas): RateLimits {
  const token = policy('token', quotas.requestsPerToken, quotas.windowSeconds);
  const account = policy('account', quotas.requestsPerAccount, quotas.windowSeconds);
  const address = policy('address', quotas.anonymousPerAddress, quotas.windowSeconds);
  const registration = policy('registration', quotas.registrationsPerAddress, 3600);

  /** The verdict of an authenticated request; the actor learns its credential key on the way (per-token thread quotas). */
  const authenticated = async (req: Request, res: Response): Promise<Verdict | undefined> => {
    const auth = (req as Request & { auth?: AuthInfo }).auth;
    const actor = actorOf(auth);
    if (!auth || !actor) return undefined;
    actor.credential ??= credentialKey(auth);
    return setFields(res, await consume([[token, actor.credential], [account, actor.accountId]]));
  };
  const perAddress = (p: Policy | null): RequestHandler => async (req, res, next) => {
    try {
      const refused = setFields(res, await consume([[p, req.ip ?? req.socket.remoteAddress ?? 'unknown']]));
      if (!refused) return next();
      res.status(429).json({ success: false, error: errorBody(refusal(refused)) });
    } catch (error) {
      next(error);
    }
  };

  return {
    rest: async (req: Request, res: Response, next: NextFunction) => {
      try {
        const refused = await authenticated(req, res);
        if (!refused) return next();
        res.status(429).json({ success: false, error: errorBody(refusal(refused)) });
      } catch (error) {
        next(error);
      }
    },
    mcp: (readBody) => async (req: Request, res: Response, next: NextFunction) => {
      try {
        const refused = await authenticated(req, res);
        if (!refused) return next();
        const error = errorBody(refusal(refused));
        const declared = Number(req.headers['content-length']);
        const rpcRefusal = () => res.status(429).json({ jsonrpc: '2.0', error: { code: -32000, message: error.message, data: error.details }, id: null });
        if (!(declared > 0 && declared <= ENVELOPE_BODY_BYTES)) return rpcRefusal();
        readBody(req, res, () => {
          const message = req.body as { method?: unknown; id?: unknown } | undefined;
          const id = message && !Array.isArray(message) ? message.id : undefined;
          if (message?.method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return rpcRefusal();
          // What the model reads: the tool's envelope, with the code and the wait (HTTP 200, as every tool answer).
          res.status(200).json({ jsonrpc: '2.0', id, result: errorResult(error) });
        });
      } catch (error) {
        next(error);
      }
    },
    anonymous: perAddress(address),
    registration: (req, res, next) => (req.method === 'POST' ? perAddress(registration)(req, res, next) : next()),
  };
}
