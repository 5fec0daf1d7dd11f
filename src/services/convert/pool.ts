/**
 * Where large bodies are converted (issue 16, "No single request may freeze or kill the server"): a pool of
 * worker threads, one per core, each with a time limit and a heap limit per conversion, so that converting
 * an 8 MB body never holds the event loop every account shares. Small bodies (the common case) convert
 * inline, where a thread hop would cost more than the work. `serve` and `stdio` start the pool; without one
 * (services called directly, as tests do) every body converts inline.
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { assertTopLevelFloor, bodyToMarkdown, textLongerThan, type SlateBody } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { WaymarkError } from '../../errors.js';
import { onThreads } from '../fair-share.js';
import { prepareBody, summarisePrevious, summarisePreviousJson, type BodyInput, type PreparedBody } from '../bits/body.js';
import { bodyView, readBody, type ConvertTask, type ConvertReply, type EncodeTask, type ReadBody, type RenderTask } from './task.js';

export interface ConvertPoolOptions {
  threads?: number;
  timeoutMs?: number;
  memoryMb?: number;
}

let pool: { piscina: Piscina<ConvertTask | RenderTask | EncodeTask, ConvertReply>; timeoutMs: number; memoryMb: number } | null = null;

/** Limits from the environment (WAYMARK_CONVERT_TIMEOUT_MS, WAYMARK_CONVERT_MEMORY_MB), else LIMITS. */
export function convertPoolOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ConvertPoolOptions {
  const number = (text: string | undefined) => (text && Number(text) > 0 ? Number(text) : undefined);
  return { timeoutMs: number(env.WAYMARK_CONVERT_TIMEOUT_MS), memoryMb: number(env.WAYMARK_CONVERT_MEMORY_MB) };
}

export function startConvertPool(options: ConvertPoolOptions = {}): void {
  if (pool) return;
  const threads = options.threads ?? Math.max(1, availableParallelism());
  const memoryMb = options.memoryMb ?? LIMITS.convertMemoryMb;
  pool = {
    piscina: new Piscina<ConvertTask | RenderTask | EncodeTask, ConvertReply>({
      // Compiled (dist/server) the task module runs as it is; from the sources (tsx, vitest) a small entry
      // registers tsx in the worker first, since a worker inherits neither loader.
      filename: new URL(import.meta.url.endsWith('.ts') ? './worker.mjs' : './convert-task.js', import.meta.url).href,
      name: 'runConvertTask',
      // Threads start with the first large body, not with the process: at start they would load the converter
      // beside the main thread on the same cores (what `waymark stdio` pays on every launch), and most runs never
      // convert a body above inlineConvertChars. Once started they stay.
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(16, Math.max(4, memoryMb >> 4)) },
    }),
    timeoutMs: options.timeoutMs ?? LIMITS.convertTimeoutMs,
    memoryMb,
  };
  // A task's own failure reaches its caller; a worker that fails outside a task (starting, under a heap limit too
  // small to load the converter) is replaced by piscina, and said here instead of ending the process.
  pool.piscina.on('error', (error: unknown) => process.emitWarning(error instanceof Error ? error : String(error), 'WaymarkConvertPool'));
}

export async function stopConvertPool(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.piscina.destroy();
}

function tooCostly(reason: string, details: Record<string, unknown>): WaymarkError {
  return new WaymarkError('BODY_TOO_LARGE', `bit_body ${reason}; split the content over several bits`, { max_bytes: LIMITS.bodyBytes, ...details });
}

/**
 * prepareBody (bits/body.ts), off the event loop when the input is large and a pool runs: the body comes back
 * as its JSON text and this thread never builds its nodes. A conversion over its time or memory limit is
 * BODY_TOO_LARGE (the worker is replaced).
 */
export async function prepareBodyOffThread(
  input: BodyInput,
  /** The stored body, or its JSON text as the store gave it (then the worker parses it, not this thread). */
  previous: SlateBody | string | undefined,
  /** update_bit's remove_node_ids. */
  removeNodeIds?: string[],
): Promise<PreparedBody> {
  const arrayAsMarkdown = Array.isArray(input.bit_body) && input.content_format === 'markdown';
  if (!pool || arrayAsMarkdown || !textLongerThan(input.bit_body, LIMITS.inlineConvertChars)) {
    const summary = previous === undefined ? undefined : typeof previous === 'string' ? summarisePreviousJson(previous) : summarisePrevious(previous);
    return prepareBody(input, summary, randomUUID, removeNodeIds);
  }
  const { piscina, timeoutMs, memoryMb } = pool;
  // slateToBody checks this too, in the worker: here an array too long to store is refused before it is written out for one.
  if (Array.isArray(input.bit_body)) assertTopLevelFloor(input.bit_body.length);
  // Writing a large node array as text for the worker is a step of its own on the event loop, not the tail of
  // the tool call's checks (the caller's request may have been parsed in the same turn).
  if (typeof input.bit_body !== 'string') await yieldToEventLoop();
  const task: ConvertTask = {
    input: typeof input.bit_body === 'string' ? input : { ...input, bit_body: JSON.stringify(input.bit_body) as unknown as string, content_format: 'slate' },
    previousJson: previous === undefined ? null : typeof previous === 'string' ? previous : JSON.stringify(previous),
    removeNodeIds,
  };
  let reply: ConvertReply;
  // The time limit is the conversion's own: it starts when a thread takes the task up. Counted from here, a
  // body that waited behind others (eight near-limit bodies at once on two threads) was refused as too
  // costly after converting for a fraction of it (issue 24, finding 10).
  const { port1: started, port2 } = new MessageChannel();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  started.once('message', () => {
    timer = setTimeout(() => abort.abort(), timeoutMs);
  });
  try {
    // Its account's turn first (fair-share.ts); the thread's own time limit starts after that too.
    reply = await onThreads('conversions', () => piscina.run({ ...task, started: port2 }, { signal: abort.signal, transferList: [port2] }));
  } catch (error) {
    if (isAbort(error)) throw tooCostly(`took longer than ${timeoutMs} ms to convert`, { max_ms: timeoutMs });
    if (isOutOfMemory(error)) throw tooCostly(`needs more than ${memoryMb} MB to convert`, { max_memory_mb: memoryMb });
    throw error;
  } finally {
    clearTimeout(timer);
    started.close();
  }
  if (!reply.ok) throw new WaymarkError(reply.code, reply.message, reply.details);
  if (!('prepared' in reply)) throw new Error('the conversion worker answered a conversion with markdown');
  return reply.prepared;
}

/**
 * A stored body printed as markdown, off the event loop when it is large and a pool runs: printing an 8 MB
 * body takes 100–150 ms, which with reading and answering it held the loop past 250 ms (issue 16). `json` is
 * the body's JSON text when the store gave it as text (SQLite), so it is not written again here. A stored
 * body was checked when written, so no limit applies (none is refused on the way out).
 */
export async function renderBodyOffThread(body: SlateBody, json?: string): Promise<string> {
  if (!pool || !textLongerThan(json ?? body.children, LIMITS.inlineConvertChars)) return bodyToMarkdown(body);
  const { piscina } = pool;
  const reply = await onThreads('heavy_reads', () => piscina.run({ renderJson: json ?? JSON.stringify(body) }));
  if (!reply.ok || !('markdown' in reply)) throw new Error('the conversion worker did not print the body');
  return reply.markdown;
}

/**
 * get_bit's view of a stored body (its markdown, elements and connection nodes), from the body as the store
 * gave it. A large body given as JSON text (SQLite) is read on a conversion thread alone: this thread never
 * builds its tree (19 MB for an 8 MB body, beside the worker's own: bench/memory.ts).
 */
export async function readBodyOffThread(stored: SlateBody | string): Promise<ReadBody> {
  if (typeof stored !== 'string') return bodyView(stored, await renderBodyOffThread(stored));
  if (!pool || !textLongerThan(stored, LIMITS.inlineConvertChars)) return readBody(JSON.parse(stored) as SlateBody);
  const { piscina } = pool;
  const reply = await onThreads('heavy_reads', () => piscina.run({ renderJson: stored, read: true }));
  if (!reply.ok || !('read' in reply)) throw new Error('the conversion worker did not read the body');
  return reply.read;
}

/**
 * `value` as UTF-8 JSON, written on a conversion thread, when it is over LIMITS.offThreadAnswerChars and a pool
 * runs; else undefined (the caller writes it as it always does). An answer of a 7 MB bit as markdown is about 16 MB
 * of JSON (the envelope twice, CONTRACT.md), and writing and encoding it held the event loop 150–250 ms (issue 16).
 * Copying it to the thread is a fraction of that; the bytes come back moved.
 */
export async function encodeLargeJson(value: unknown): Promise<Uint8Array | undefined> {
  if (!pool || !textLongerThan(value, LIMITS.offThreadAnswerChars)) return undefined;
  // Not counted against the caller's heavy reads: the answer exists already, and refusing it now would waste the
  // read that made it (the read itself took a slot, so one account's encodes are as few as its reads).
  const reply = await pool.piscina.run({ encodeJson: value });
  if (!reply.ok || !('encoded' in reply)) throw new Error('the conversion worker did not encode the value');
  return reply.encoded;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || /abort/i.test(error.message));
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|exited/i.test(error.message));
}
