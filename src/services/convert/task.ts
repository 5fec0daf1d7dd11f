/**
 * One body conversion as the conversion worker runs it (convert/pool.ts): the same prepareBody as inline,
 * with a WaymarkError answered as data (an Error does not keep its class across threads); the body comes
 * back as the JSON text the caller stores. Or a stored body printed as markdown (get_bit, a trail step),
 * from its JSON text.
 */
import { randomUUID } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bodyToMarkdown, collectConnections, listElements, type ConnectionNode, type ListedElement, type SlateBody } from '../../content/index.js';
import { WaymarkError, type ErrorCode } from '../../errors.js';
import { prepareBody, summarisePreviousJson, type BodyInput, type PreviousBody, type PreparedBody } from '../bits/body.js';

export interface ConvertTask {
  input: BodyInput;
  /** The stored body the new one keeps ids from, as its JSON text. */
  previousJson: string | null;
  /** update_bit's remove_node_ids. */
  removeNodeIds?: string[];
  /** Told when a thread takes the task up: its time limit counts from there, not from its wait in the queue. */
  started?: MessagePort;
}

/** A stored body to print as markdown, as its JSON text; with `read`, its elements and connections too (get_bit). */
export interface RenderTask {
  renderJson: string;
  read?: boolean;
}

/** What get_bit shows of a stored body besides its fields: the body as shown (markdown or nodes), its elements and connection nodes. */
export interface BodyView<B> {
  body: B;
  elements: ListedElement[];
  connections: ConnectionNode[];
}

export type ReadBody = BodyView<string>;

export function bodyView<B>(body: SlateBody, shown: B): BodyView<B> {
  return { body: shown, elements: listElements(body), connections: collectConnections(body) };
}

/** A value to write as JSON, in UTF-8: a large answer (http/mcp/transport.ts, http/rest/router.ts), written off the event loop's thread. */
export interface EncodeTask {
  encodeJson: unknown;
}

export type ConvertReply =
  | { ok: true; prepared: PreparedBody }
  | { ok: true; encoded: Uint8Array }
  | { ok: true; markdown: string }
  | { ok: true; read: ReadBody }
  | { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

export function runConvertTask(task: ConvertTask | RenderTask | EncodeTask): ConvertReply {
  if ('encodeJson' in task) {
    const bytes = new TextEncoder().encode(JSON.stringify(task.encodeJson));
    return movedWith({ ok: true, encoded: bytes }, bytes);
  }
  if ('renderJson' in task) {
    const body = JSON.parse(task.renderJson) as SlateBody;
    return task.read ? { ok: true, read: readBody(body) } : { ok: true, markdown: bodyToMarkdown(body) };
  }
  task.started?.postMessage(null);
  try {
    const { json, ...prepared } = prepareBody(task.input, takePrevious(task), randomUUID, task.removeNodeIds, true);
    // The body goes back as its UTF-8 bytes, moved (not copied) to the event loop's thread, which stores
    // them as they are (StoreDialect.writtenJson): as text it was copied into the message, then into a string
    // there, then into UTF-8 again for SQLite.
    const bytes = new TextEncoder().encode(json);
    collectGarbage();
    return movedWith({ ok: true, prepared: { ...prepared, json: bytes } }, bytes);
  } catch (error) {
    if (error instanceof WaymarkError) return { ok: false, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
    throw error;
  }
}

export function readBody(body: SlateBody): ReadBody {
  return bodyView(body, bodyToMarkdown(body));
}

/**
 * What the conversion needs of the stored body, its text let go of by the task (the task message is alive
 * for the whole conversion): neither the 8 MB text nor the tree parsed from it stays for the conversion.
 */
function takePrevious(task: ConvertTask): PreviousBody | undefined {
  const json = task.previousJson;
  if (json === null) return undefined;
  task.previousJson = null;
  return summarisePreviousJson(json);
}

/** A reply whose `bytes` are moved to the receiving thread (piscina's transfer list), not copied. */
function movedWith(reply: ConvertReply, bytes: Uint8Array): ConvertReply {
  const transferable = { [transferableSymbol]: bytes.buffer, [valueSymbol]: reply };
  return move(transferable) as unknown as ConvertReply;
}

let gc: (() => void) | undefined;

/**
 * A full collection of this thread's heap: a conversion leaves its tokens and trees behind as garbage, which
 * the collector would take at its own time, after the event loop's thread has received the body and
 * written it. Collected now, the pages go back before that (bench/memory.ts).
 */
function collectGarbage(): void {
  if (!gc) {
    // The flag makes `gc` a global of contexts created while it is set: only this one.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  gc();
}
