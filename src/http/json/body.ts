/**
 * JSON request bodies, read per route after the bearer check and within that route's limit (issue 16, finding 3:
 * one `express.json` of 64 MB ran for every path before the token was looked at, so an anonymous body of
 * small objects held the event loop for seconds).
 *
 * In order, each step refusing before the next costs anything: the media type; the declared length; the bytes as
 * they arrive (a chunked body is stopped at the limit); the JSON's shape, counted by a linear scan; only then
 * JSON.parse, in pieces for a large body.
 */
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LIMITS } from '../../limits/index.js';
import { parseJsonPieces } from './pieces.js';
import { JsonShapeScan, SHORT_STRING, type JsonShapeExcess, type JsonShapeLimits } from './scan.js';

export interface BodyRefusal {
  status: 400 | 413 | 415;
  message: string;
}

export type BodyRead = { value: unknown } | { refusal: BodyRefusal };

/** How a route answers a refused body: the JSON-RPC error on /mcp, the envelope under /api/v1. */
export type RefuseBody = (res: Response, refusal: BodyRefusal) => void;

const MB = 1024 * 1024;

const SHAPE_LIMITS: JsonShapeLimits = { containers: LIMITS.requestJsonContainers, values: LIMITS.requestJsonValues, depth: LIMITS.requestJsonDepth, members: LIMITS.requestJsonObjectMembers, keys: LIMITS.requestJsonKeys, shortStrings: LIMITS.requestJsonShortStrings };

/** Containers a body of `bytes` may hold: bounded per byte too, so that a small body of `{}` stays cheap. */
export function containersFor(bytes: number): number {
  return Math.min(LIMITS.requestJsonContainers, 1024 + Math.floor(bytes / LIMITS.requestBytesPerJsonContainer));
}

const tooLarge = (maxBytes: number): BodyRefusal => ({
  status: 413,
  message: `Request body too large: at most ${maxBytes / MB} MB of JSON on this route.`,
});

function tooComplex(excess: JsonShapeExcess): BodyRefusal {
  const what = {
    containers: `objects and arrays (one per ${LIMITS.requestBytesPerJsonContainer} bytes of body, ${LIMITS.requestJsonContainers} at most)`,
    values: 'values (strings and keys, numbers, literals)',
    depth: 'levels of nesting',
    members: 'members in one object',
    keys: 'distinct keys',
    shortStrings: `distinct strings of up to ${SHORT_STRING} characters`,
  }[excess.limit];
  return { status: 413, message: `Request JSON too complex: more than ${excess.max} ${what}.` };
}

/** A body longer than this is parsed from its bytes in pieces, each in a turn of the event loop of its own. */
const LARGE_BYTES = 1024 * 1024;
/** Bytes of a large body parsed in a turn: about this many; at most twice that, plus one member longer than it. */
export const PIECE_BYTES = 256 * 1024;

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

  const read = await readText(req, maxBytes);
  if ('refusal' in read) return read;
  try {
    if ('text' in read) return { value: JSON.parse(read.text) as unknown };
    // The bytes are whole now (joined from their chunks): parsing them starts in a turn of its own, not the tail
    // of the last chunk's. JSON.parse of 7 MB of small objects in one turn held the loop 100 to 270 ms.
    await yieldToEventLoop();
    const value = await parseJsonPieces(read.bytes, read.scan);
    // Parsing megabytes is a step of the event loop and the route's work on them another: without this turn
    // between them, a request of 8 MB of small objects held the loop for both at once (test/hostile/convert.test.ts).
    await yieldToEventLoop();
    return { value };
  } catch (error) {
    // V8's message names the position and quotes a few characters around it: bounded, and no internals.
    return { refusal: { status: 400, message: `Parse error: ${String((error as Error).message).slice(0, 200)}` } };
  }
}

type TextRead = { text: string } | { bytes: Buffer; scan: JsonShapeScan } | { refusal: BodyRefusal };

/**
 * The body as text, decoded and its shape counted chunk by chunk as it arrives (so no step over the whole body
 * holds the event loop but its parse), or a refusal as soon as it goes over `maxBytes` or a shape bound. A large
 * body is its bytes and its scan instead, for parseJsonPieces. What is left of a refused body is not kept (see
 * closeUnreadBodies).
 */
function readText(req: IncomingMessage, maxBytes: number): Promise<TextRead> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    const scan = new JsonShapeScan(SHAPE_LIMITS, PIECE_BYTES);
    const parts: string[] = [];
    const chunks: Buffer[] = [];
    let total = 0;
    const detach = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    const refuse = (refusal: BodyRefusal) => {
      detach();
      parts.length = 0;
      chunks.length = 0;
      resolve({ refusal });
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return refuse(tooLarge(maxBytes));
      const excess = scan.feed(chunk);
      if (excess) return refuse(tooComplex(excess));
      chunks.push(chunk);
      if (total <= LARGE_BYTES) parts.push(decoder.write(chunk));
    };
    const onEnd = () => {
      const containers = containersFor(total);
      if (scan.containers > containers) return refuse(tooComplex({ limit: 'containers', max: containers }));
      detach();
      if (total > LARGE_BYTES) return resolve({ bytes: Buffer.concat(chunks, total), scan });
      parts.push(decoder.end());
      resolve({ text: parts.join('') });
    };
    const onClose = () => {
      detach();
      reject(new Error('The client closed the request before its body ended.'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
  });
}

/**
 * A body still arriving when its answer is sent (refused before or while it was read): the answer says
 * `Connection: close`, at most LINGER_BYTES more are read and dropped, then nothing more is read, and the
 * connection is closed LINGER_MS after the answer.
 */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2000;

/**
 * App-wide middleware for bodies nobody will read. Node would read them to their end to keep the connection
 * (1.6 s of CPU for twelve refused 60 MB bodies). Closing at once is no better: a close with unread data resets
 * the connection, and the reset can overtake the answer, so the client sees an error instead of the refusal.
 * This is the lingering close of other servers: say `Connection: close` (the client must not send another
 * request on it), close our side for writing after the answer, and wait before the full close, reading
 * little: the client's sending stalls on TCP's window, which costs nothing, and it has time to read the answer.
 */
export function closeUnreadBodies(req: Request, res: Response, next: NextFunction): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    if (!req.complete) this.setHeader('Connection', 'close');
    return writeHead.apply(this, args);
  } as Response['writeHead'];
  // On 'prefinish', before Node's own 'finish' handler: it would start dropping the rest in its parser, and on
  // `Connection: close` destroy the socket as soon as the answer is written.
  res.once('prefinish', () => {
    if (req.complete) return;
    const socket = req.socket;
    socket.destroySoon = () => socket.end();
    const close = setTimeout(() => socket.destroy(), LINGER_MS);
    close.unref();
    socket.once('close', () => clearTimeout(close));
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) req.pause();
    });
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
