/** Starts the real express app on an ephemeral port for black-box tests. */
import type { Server } from "node:http";
import type { Express } from "express";

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(app: Express): Promise<TestServer> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  // Outlive the client's idle keep-alive, so a reused socket is never closed under a request
  // (a busy event loop — PGlite runs in-process — can otherwise race the server's idle timer).
  server.keepAliveTimeout = 120_000;
  const addr = server.address();
  if (!addr || typeof addr === "string") throw new Error("no address");
  return {
    url: `http://127.0.0.1:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface JsonResponse {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string | Uint8Array } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | Uint8Array | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] ??= typeof body === "string" ? "application/json" : "application/octet-stream";
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
