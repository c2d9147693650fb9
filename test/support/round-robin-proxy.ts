/**
 * A small HTTP load balancer on 127.0.0.1 for multi-node tests: every request (not
 * every connection — clients keep connections alive) goes to the next backend in turn.
 * A backend that refuses the connection is skipped (the request goes to the next one),
 * as a load balancer's health check would. Responses stream through, so SSE works.
 * `log` records which backend served each request, with its JSON-RPC methods and
 * whether it carried an Mcp-Session-Id.
 */
import http from "node:http";

export interface Served {
  backend: number;
  method: string;
  rpc: string[];
  mcpSession: string | undefined;
}

export interface RoundRobinProxy {
  url: string;
  readonly log: Served[];
  close(): Promise<void>;
}

function rpcMethods(body: Buffer): string[] {
  try {
    const v: unknown = JSON.parse(body.toString("utf8"));
    return (Array.isArray(v) ? v : [v]).map((m) => String((m as { method?: unknown }).method ?? "(response)"));
  } catch {
    return [];
  }
}

export async function startRoundRobinProxy(backends: readonly string[]): Promise<RoundRobinProxy> {
  const targets = backends.map((b) => new URL(b));
  const log: Served[] = [];
  let next = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number): void => {
        const i = next++ % targets.length;
        const t = targets[i]!;
        const up = http.request(
          { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host }, agent: false },
          (upRes) => {
            const sid = req.headers["mcp-session-id"];
            log.push({ backend: i, method: req.method ?? "", rpc: rpcMethods(body), mcpSession: typeof sid === "string" ? sid : undefined });
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
          },
        );
        up.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code === "ECONNREFUSED" && tries + 1 < targets.length) return attempt(tries + 1);
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        res.on("close", () => up.destroy());
        up.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  if (!addr || typeof addr === "string") throw new Error("no address");
  return {
    url: `http://127.0.0.1:${addr.port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
