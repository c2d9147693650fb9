/**
 * The stdio wire of `codesynapse mcp` (api/mcp/stdio.ts): the SDK's StdioServerTransport, except
 * at the end of input. The SDK's closes itself the moment stdin ends, which aborts every request
 * still queued or in flight — `printf '<initialize>\n<initialized>\n<tools/call>…' | codesynapse mcp`
 * got the `initialize` answer only. This one notes each request it reads and each answer it
 * writes (a result or an error; a client's `notifications/cancelled` settles its request too);
 * when stdin ends it keeps the wire open until every request read before then is answered, then
 * closes — bounded by STDIO_DRAIN_MS, after which it closes anyway.
 *
 * It wraps the SDK's transport rather than reading stdin itself, so the framing, buffer limits and
 * stdout error handling stay the SDK's; only the SDK's end-of-input handler (`_onstdinclose`, a
 * public member it registers on stdin's `end` and `close` in `start()`) is replaced before start.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Readable, Writable } from "node:stream";

/** How long a closed stdin waits for the answers to the requests read before it. */
export const STDIO_DRAIN_MS = 30_000;

export class AnsweringStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  readonly #wire: StdioServerTransport;
  readonly #unanswered = new Set<RequestId>();
  #inputEnded = false;
  #deadline: NodeJS.Timeout | undefined;

  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    private readonly drainMs = STDIO_DRAIN_MS,
  ) {
    this.#wire = new StdioServerTransport(stdin, stdout);
    this.#wire._onstdinclose = () => this.#endOfInput();
    this.#wire.onmessage = (message) => {
      if (isJSONRPCRequest(message)) this.#unanswered.add(message.id);
      else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) queueMicrotask(() => this.#answered(id));
      }
      this.onmessage?.(message);
    };
    this.#wire.onerror = (err) => this.onerror?.(err);
    this.#wire.onclose = () => {
      clearTimeout(this.#deadline);
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.#wire.start();
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    try {
      await this.#wire.send(message);
    } finally {
      if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) this.#answered(message.id);
    }
  }

  close(): Promise<void> {
    return this.#wire.close();
  }

  /** stdin ended (or closed): close once every request read is answered, or at the deadline. */
  #endOfInput(): void {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    this.#deadline = setTimeout(() => void this.close(), this.drainMs);
    this.#closeIfAnswered();
  }

  #answered(id: RequestId): void {
    this.#unanswered.delete(id);
    this.#closeIfAnswered();
  }

  #closeIfAnswered(): void {
    if (this.#inputEnded && this.#unanswered.size === 0) void this.close();
  }
}
