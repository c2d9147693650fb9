/**
 * The admin commands' remote mode: the same operation, run by a server through its REST route
 * (POST /api/v1/admin/commands/<command>, ops/admin-commands.ts) with the input the CLI parsed as
 * its JSON body, answering the same object the offline command would. Where the server is:
 *   - CODESYNAPSE_URL (with CODESYNAPSE_API_KEY, a platform admin's API key), when set;
 *   - otherwise the server that holds the embedded data directory (main/local-server.ts), with
 *     its local admin token;
 *   - otherwise none: the command opens the database itself (offline), as before.
 * Kept free of the server's modules, so a remote command starts in a fraction of a second.
 */
import { AppError } from "../core/errors";
import type { Operation } from "../ops/operation";
import { findLocalServer } from "./local-server";

export interface RemoteTarget {
  url: string;
  headers: Record<string, string>;
  via: "url" | "local";
}

/** Where to send admin commands, or undefined to run them offline. */
export function remoteTarget(env: NodeJS.ProcessEnv, dataDir: string): RemoteTarget | undefined {
  const url = env.CODESYNAPSE_URL?.trim();
  if (url) {
    const key = env.CODESYNAPSE_API_KEY?.trim();
    if (!key) {
      throw new AppError("unauthenticated", {
        message: "CODESYNAPSE_URL is set, so admin commands go to that server: set CODESYNAPSE_API_KEY to a platform admin's API key (or unset CODESYNAPSE_URL to run them on the local database).",
      });
    }
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      throw new AppError("validation_failed", { message: "CODESYNAPSE_URL is not a URL (e.g. http://localhost:8080)." });
    }
    return { url: origin, headers: { authorization: `Bearer ${key}` }, via: "url" };
  }
  if (env.DATABASE_URL) return undefined; // PostgreSQL is shared freely: no need to go through a server.
  const local = findLocalServer(dataDir);
  return local ? { url: local.url, headers: { "x-codesynapse-local-admin": local.token }, via: "local" } : undefined;
}

/** Runs one admin command on the server, through its operation's route; its error comes back as the AppError it was there. */
export async function runRemote(target: RemoteTarget, op: Operation, input: Record<string, unknown>): Promise<object> {
  const route = op.http?.[0];
  if (!route || route.method !== "post" || route.path.includes(":")) throw new AppError("internal", { cause: new Error(`${op.name} has no route the CLI can call`) });
  const body = JSON.stringify(input);
  let res: Response;
  try {
    res = await fetch(`${target.url}${route.path}`, {
      method: "POST",
      headers: { ...target.headers, "content-type": "application/json", accept: "application/json" },
      body,
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    const where = target.via === "url" ? "CODESYNAPSE_URL" : "the server that holds the data directory";
    throw new AppError("unavailable", { message: `Could not reach ${where} (${target.url}).` });
  }
  const parsed = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null;
  if (res.ok && parsed) return parsed;
  throw new RemoteError(parsed?.error?.code ?? "internal", parsed?.error?.message ?? `The server answered ${res.status}.`);
}

/** A refusal the server sent: its stable code and its message, printed as an offline error would be. */
export class RemoteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RemoteError";
  }
}
