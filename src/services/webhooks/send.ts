/**
 * One webhook request (issue 29), bounded every way a receiver could hold the deliverer: the address checked as it
 * is connected to (address.ts), no redirect followed (a 3xx is a failure), a time limit on the whole exchange, and
 * at most a few KB of the answer read before the connection is dropped.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { AddressRefused, addressAllowed, guardedLookup, type AddressPolicy } from './address.js';

export interface SendResult {
  ok: boolean;
  status: number | null;
  /** Why it failed, in words (never the answer's body). */
  error: string | null;
  durationMs: number;
}

export interface SendLimits {
  timeoutMs: number;
  /** At most this much of an answer is read. */
  maxResponseBytes: number;
}

export const SEND_LIMITS: SendLimits = { timeoutMs: 10_000, maxResponseBytes: 4096 };

export function send(url: string, headers: Record<string, string>, body: string, policy: AddressPolicy, limits: SendLimits = SEND_LIMITS): Promise<SendResult> {
  const started = performance.now();
  const done = (ok: boolean, status: number | null, error: string | null): SendResult => ({ ok, status, error, durationMs: Math.round(performance.now() - started) });
  return new Promise((resolve) => {
    const target = new URL(url);
    // A literal address is connected to without a lookup: check it here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !addressAllowed(literal, policy)) return resolve(done(false, null, new AddressRefused(literal).message));
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Waymark-Webhooks/1' },
        lookup: guardedLookup(policy) as never,
        signal: AbortSignal.timeout(limits.timeoutMs),
      },
      (response) => {
        let read = 0;
        const status = response.statusCode ?? 0;
        const finish = () => {
          response.destroy();
          if (status >= 200 && status < 300) resolve(done(true, status, null));
          else if (status >= 300 && status < 400) resolve(done(false, status, `answered ${status} (a redirect, which is not followed)`));
          else resolve(done(false, status, `answered ${status}`));
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= limits.maxResponseBytes) finish();
        });
        response.on('end', finish);
        response.on('error', () => finish());
      },
    );
    request.on('error', (error: Error) => {
      const reason = error instanceof AddressRefused ? error.message : error.name === 'TimeoutError' || error.name === 'AbortError' ? `no answer within ${limits.timeoutMs} ms` : `could not connect (${(error as NodeJS.ErrnoException).code ?? error.message})`;
      resolve(done(false, null, reason));
    });
    request.end(body);
  });
}
