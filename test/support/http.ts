/** Starts the real express app on an ephemeral port for black-box tests. */
import type { Server } from "node:http";
import { CodeSynapseClient, type JobView } from "@codesynapse/client";
import type { Express } from "express";
import { uniq } from "./fixtures";

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
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The execution headers of a chat thread: the caller's key, its session and its parent session. */
export function executionHeaders(apiKey: string, session: string, parent = session): Record<string, string> {
  return { ...bearer(apiKey), "x-codesynapse-session": session, "x-codesynapse-parent-session": parent };
}

/** A chat thread's client (@codesynapse/client): the key and the session set once. */
export function threadClient(base: string, apiKey: string, session = uniq("thread")): CodeSynapseClient {
  return new CodeSynapseClient({ baseUrl: base, apiKey, sessionId: session });
}

export interface Thread {
  session: string;
  /** The same key and session as raw headers, for tests that send requests by hand. */
  headers: Record<string, string>;
  expiresAt: string;
  client: CodeSynapseClient;
}

/** Registers a chat thread for the key's caller through the client (POST /api/v1/execution/sessions; a refusal throws). */
export async function registerThread(base: string, apiKey: string, session = uniq("thread")): Promise<Thread> {
  const client = threadClient(base, apiKey, session);
  const identity = await client.register();
  return { session, headers: executionHeaders(apiKey, session), expiresAt: identity.expires_at, client };
}

/** Uploads a snapshot archive, ingests it and waits for the job to end: the runtime flow, through the client. */
export async function ingestArchive(client: CodeSynapseClient, repo: string, archive: Uint8Array, timeoutMs = 180_000): Promise<JobView> {
  const { upload_id } = await client.upload(repo, archive);
  const { job_id } = await client.submit("ingest", repo, { upload_id });
  return client.waitForJob(job_id, { timeoutMs });
}
