/**
 * JSON request bodies, read per route after the bearer check and within that route's limit (issue 16, finding 3:
 * one `express.json` of 64 MB ran for every path before the token was looked at, so an anonymous body of
 * small objects held the event loop for seconds).
 *
 * In order, each step refusing before the next costs anything: the media type; the declared length; the bytes as
 * they arrive (a chunked body is stopped at the limit); the JSON's shape, counted by a linear scan; only then
 * JSON.parse.
 */
import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LIMITS } from '../content/limits.js';
import { jsonShapeExcess, type JsonShapeLimits } from './json-scan.js';

export interface BodyRefusal {
  status: 400 | 413 | 415;
  message: string;
}

export type BodyRead = { value: unknown } | { refusal: BodyRefusal };

/** How a route answers a refused body: the JSON-RPC error on /mcp, the envelope under /api/v1. */
export type RefuseBody = (res: Response, refusal: BodyRefusal) => void;

const MB = 1024 * 1024;

/** The shape a body of `bytes` may have: containers are bounded per byte too, so a small body stays cheap. */
export function shapeLimits(bytes: number): JsonShapeLimits {
  return {
    containers: Math.min(LIMITS.requestJsonContainers, 1024 + Math.floor(bytes / LIMITS.requestBytesPerJsonContainer)),
    values: LIMITS.requestJsonValues,
    depth: LIMITS.requestJsonDepth,
  };
}

const tooLarge = (maxBytes: number): BodyRefusal => ({
  status: 413,
  message: `Request body too large: at most ${maxBytes / MB} MB of JSON on this route.`,
});

/** The body of a request as JSON, or why it is refused. Rejects only when the client goes away mid-body. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return { refusal: { status: 415, message: `Content-Encoding ${encoding} is not accepted: send the JSON uncompressed.` } };
  }
  const type = req.headers['content-type'];
  if (type === undefined || !isJsonContentType(type)) {
    return { refusal: { status: 415, message: 'Unsupported Media Type: Content-Type must be application/json.' } };
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return { refusal: tooLarge(maxBytes) };

  const bytes = await readBytes(req, maxBytes);
  if (bytes === null) return { refusal: tooLarge(maxBytes) };
  const excess = jsonShapeExcess(bytes, shapeLimits(bytes.length));
  if (excess) {
    const what = {
      containers: `objects and arrays (one per ${LIMITS.requestBytesPerJsonContainer} bytes of body, ${LIMITS.requestJsonContainers} at most)`,
      values: 'values (strings and keys, numbers, literals)',
      depth: 'levels of nesting',
    }[excess.limit];
    return { refusal: { status: 413, message: `Request JSON too complex: more than ${excess.max} ${what}.` } };
  }
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (error) {
    // V8's message names the position and quotes a few characters around it: bounded, and no internals.
    return { refusal: { status: 400, message: `Parse error: ${String((error as Error).message).slice(0, 200)}` } };
  }
}

/**
 * The whole body, or null as soon as it goes over `maxBytes` (what is left is not kept: see closeUnreadBodies).
 */
function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      chunks.length = 0;
      resolve(null);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, total));
    };
    const onClose = () => {
      stop();
      reject(new Error('The client closed the request before its body ended.'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
  });
}

/**
 * A body still arriving when its answer has gone (refused before or while it was read): at most LINGER_BYTES more
 * are read and dropped (a small body ends and the connection is kept); past that nothing more is read, and the
 * connection is closed LINGER_MS after the answer.
 */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2000;

/**
 * App-wide middleware for bodies nobody will read. Node would read them to their end to keep the connection
 * (1.6 s of CPU for twelve refused 60 MB bodies). Closing at once is no better: a close with unread data resets
 * the connection, and the reset can overtake the answer, so the client sees an error instead of the refusal.
 * Waiting without reading costs nothing (the client's sending stalls on TCP's window) and gives it time to read.
 */
export function closeUnreadBodies(req: Request, res: Response, next: NextFunction): void {
  // On 'prefinish', before Node's own 'finish' handler would start dropping the rest in its parser.
  res.once('prefinish', () => {
    if (req.complete) return;
    const close = setTimeout(() => req.socket.destroy(), LINGER_MS);
    close.unref();
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) req.pause();
    });
    req.once('end', () => clearTimeout(close));
  });
  next();
}

/** Middleware: `req.body` is the parsed JSON, or the route's refusal is sent. */
export function jsonBody(maxBytes: number, refuse: RefuseBody): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    readJsonBody(req, maxBytes).then(
      (read) => {
        if ('refusal' in read) refuse(res, read.refusal);
        else {
          req.body = read.value;
          next();
        }
      },
      // The client is gone: there is no one to answer.
      () => undefined,
    );
  };
}
