/**
 * Binding a server command's port — PORT for the API, METRICS_PORT for a worker's own metrics
 * server — before anything else starts (main/runtime.ts): a port that cannot be bound (taken by
 * another server, not allowed, an address not on this machine) is a PortUnavailable naming the
 * port and its variable, and at that point no store is open, no pool runs and no server.json is
 * written. Express's `app.listen` is not used: in Express 5 its callback also receives the
 * server's `'error'` event, so a taken port would read as listening.
 *
 * The socket is bound first and the handler comes later (`serve`): a request that arrives while
 * the rest of the process starts waits for it, as it would in the kernel's backlog; none is lost.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";

/** A port the process cannot listen on; the message names the port and the variable that chose it, and what to do. */
export class PortUnavailable extends Error {
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
    this.name = "PortUnavailable";
  }
}

export interface BoundPort {
  readonly server: Server;
  /** `http://HOST:PORT` with the port actually bound (PORT=0 binds a free one). */
  readonly url: string;
  /** Hands the requests (those that waited included) to the handler. */
  serve(handler: RequestListener): void;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

function refusal(err: NodeJS.ErrnoException, host: string, port: number, variable: string): PortUnavailable {
  const where = `port ${port} on ${host} (${variable})`;
  switch (err.code) {
    case "EADDRINUSE":
      return new PortUnavailable(`${where} is already in use by another process; stop it or set ${variable} to a free port`, variable);
    case "EACCES":
      return new PortUnavailable(`${where} is not allowed for this user; set ${variable} to a port above 1023`, variable);
    case "EADDRNOTAVAIL":
      return new PortUnavailable(`${where}: the address ${host} is not on this machine; set HOST to one of its addresses`, variable);
    default:
      return new PortUnavailable(`cannot listen on ${where}: ${err.code ?? err.message}`, variable);
  }
}

/** Binds HOST:PORT now; rejects with a PortUnavailable when it cannot. */
export async function bindPort(opts: { host: string; port: number; variable: string }): Promise<BoundPort> {
  let handler: RequestListener | undefined;
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  const server = createServer((req, res) => (handler ? handler(req, res) : waiting.push([req, res])));
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(refusal(err, opts.host, opts.port, opts.variable));
    server.once("error", onError);
    // node:http's listen callback is the 'listening' event only.
    server.listen(opts.port, opts.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const addr = server.address();
  return {
    server,
    url: `http://${opts.host}:${typeof addr === "object" && addr ? addr.port : opts.port}`,
    serve(h) {
      handler = h;
      for (const [req, res] of waiting.splice(0)) h(req, res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
