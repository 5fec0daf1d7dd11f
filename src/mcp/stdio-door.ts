/**
 * The front door of `waymark stdio` (issue 25, "Each door loads what it serves"). A desktop client launches the
 * server and waits for its answer to `initialize` on every start; that answer needs only the SDK and who the
 * server is (identity.ts), not the store, the services or the tools, which take most of a start to load. So the
 * door reads stdin from launch and answers `initialize` with a server that has nothing else yet; every message
 * (the `initialize` too) is held, in order, until the full server is ready (`open`), then handed to it. The full
 * server thus sees the whole conversation from the start, the client's capabilities included, as it did when
 * it was the only one; its own answer to the replayed `initialize` is not sent again (the client has one), only
 * checked against the door's.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  McpServer,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from './identity.js';

/** One server's end of the shared stdio: what the wire delivers, and what the server sends (through `outbound`). */
class Relay implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private closed = false;

  constructor(
    private readonly wire: Transport,
    /** Sees each outgoing message first: undefined lets it through, a promise is its sending done otherwise. */
    private readonly outbound: (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void> | undefined,
  ) {}

  private markStarted!: () => void;
  /** The server's side took the transport (its `start`). */
  readonly started = new Promise<void>((resolve) => (this.markStarted = resolve));

  async start(): Promise<void> {
    this.markStarted();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await (this.outbound(message, options) ?? this.wire.send(message, options));
  }

  deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!this.closed) this.onmessage?.(message, extra);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/** What the client read in answer to a request: its result or error, as JSON (the id apart). */
function answerText(message: JSONRPCMessage): string | undefined {
  if (isJSONRPCResultResponse(message)) return JSON.stringify(message.result);
  if (isJSONRPCErrorResponse(message)) return JSON.stringify(message.error);
  return undefined;
}

function responseId(message: JSONRPCMessage): RequestId | undefined {
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? message.id : undefined;
}

export class StdioDoor {
  private readonly wire: Transport;
  private readonly handshake = new McpServer({ ...SERVER_INFO }, { instructions: SERVER_INSTRUCTIONS });
  private readonly early: Relay;
  private full: Relay | null = null;
  private readonly held: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [];
  /** The door's answers to `initialize`, by request id, until the full server's own answer to it comes. */
  private readonly answered = new Map<RequestId, string>();
  /** Requests the door is answering now. */
  private readonly answering = new Set<RequestId>();
  /** A message other than `initialize` came. */
  private asked = false;
  private ended = false;
  private settleWanted!: (wanted: boolean) => void;
  private settleClosed!: () => void;
  /** Whether to load the full server (see settle). */
  readonly wanted = new Promise<boolean>((resolve) => (this.settleWanted = resolve));
  /** The client went away (stdin ended) or the door was closed. */
  readonly closed = new Promise<void>((resolve) => (this.settleClosed = resolve));
  /** Said when the full server answered a replayed `initialize` differently from the door. */
  onMismatch: (door: string, full: string) => void = () => undefined;

  constructor(wire: Transport = new StdioServerTransport()) {
    this.wire = wire;
    this.handshake.server.registerCapabilities(SERVER_CAPABILITIES);
    // An initialize the SDK drops unanswered (one it will not serve on this connection) says so here: the wait
    // for the door's answer ends, and the full server, which gets it too, answers it its own way.
    this.handshake.server.onerror = () => {
      this.answering.clear();
      this.asked = true;
      this.settle();
    };
    this.early = new Relay(wire, (message, options) => {
      const id = responseId(message);
      const text = answerText(message);
      if (id === undefined || text === undefined || !this.answering.has(id)) return undefined;
      this.answered.set(id, text);
      // The wait for `wanted` ends once the answer is written: loading the rest never holds it back.
      return this.wire.send(message, options).finally(() => {
        this.answering.delete(id);
        this.settle();
      });
    });
  }

  /** Reads stdin from now on and answers `initialize`. */
  async start(): Promise<void> {
    await this.handshake.connect(this.early);
    this.wire.onmessage = (message, extra) => this.receive(message, extra);
    this.wire.onerror = (error) => (this.full ?? this.early).onerror?.(error);
    this.wire.onclose = () => {
      this.ended = true;
      void this.early.close();
      void this.full?.close();
      this.settle();
      this.settleClosed();
    };
    await this.wire.start();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.full) {
      this.full.deliver(message, extra);
      return;
    }
    this.held.push([message, extra]);
    if (isJSONRPCRequest(message) && message.method === 'initialize') {
      this.answering.add(message.id);
      this.early.deliver(message, extra);
    } else {
      this.asked = true;
    }
    this.settle();
  }

  /**
   * The wait for `wanted` ends once the door's answers are written: with true when the client said anything
   * (the full server is loaded right after the handshake, while the client reads it), with false when it
   * left first (the SDK answers nothing after stdin ends, so there is nothing to load for).
   */
  private settle(): void {
    if (this.answering.size > 0) return;
    if (this.ended) this.settleWanted(false);
    else if (this.asked || this.answered.size > 0) this.settleWanted(true);
  }

  /**
   * Hands the conversation to the full server, which `serve` connects to the transport it is given: what was held,
   * in order, then everything that comes.
   */
  async open(serve: (transport: Transport) => unknown): Promise<void> {
    const relay = new Relay(this.wire, (message) => {
      const id = responseId(message);
      const door = id === undefined ? undefined : this.answered.get(id);
      if (id === undefined || door === undefined) return undefined;
      // The replayed initialize: the client has the door's answer already.
      this.answered.delete(id);
      const full = answerText(message) ?? '';
      if (full !== door) this.onMismatch(door, full);
      return Promise.resolve();
    });
    serve(relay);
    await relay.started;
    this.full = relay;
    for (const [message, extra] of this.held.splice(0)) relay.deliver(message, extra);
    if (this.ended) await relay.close();
  }

  /** Stops reading stdin. */
  async close(): Promise<void> {
    await this.wire.close();
  }
}
