/**
 * How the CLI finds a server that holds the embedded data directory (docs/deployment.md, "Admin
 * commands while the server runs"). A server that serves the API on the embedded database writes
 * DATA_DIR/server.json — its URL, its pid and a random local admin token — readable by its owner
 * only (0600), and removes it when it stops. The CLI on the same machine reads it and runs admin
 * commands through POST /api/v1/admin/commands/{name} with that token (X-CodeSynapse-Local-Admin)
 * instead of opening the database the server holds. The token grants exactly that endpoint; whoever
 * can read the data directory can already read the whole database in it.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const FILE = "server.json";

export interface LocalServer {
  url: string;
  pid: number;
  token: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A wildcard listen address is reached on loopback. */
function reachable(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.hostname === "0.0.0.0" || u.hostname === "::" || u.hostname === "[::]") u.hostname = "127.0.0.1";
  return u.origin;
}

/** Writes the file for this process's server; returns the token and the function that removes it. */
export function announceLocalServer(dataDir: string, url: string): { token: string; remove: () => void } {
  const token = randomBytes(32).toString("base64url");
  const file = path.join(dataDir, FILE);
  writeFileSync(file, JSON.stringify({ url: reachable(url), pid: process.pid, token } satisfies LocalServer), { mode: 0o600 });
  return {
    token,
    remove: () => {
      try {
        const held = JSON.parse(readFileSync(file, "utf8")) as Partial<LocalServer>;
        if (held.pid === process.pid) rmSync(file);
      } catch {
        /* already gone */
      }
    },
  };
}

/** The running server on this data directory, if one announced itself and is still alive. */
export function findLocalServer(dataDir: string): LocalServer | undefined {
  let held: Partial<LocalServer>;
  try {
    held = JSON.parse(readFileSync(path.join(dataDir, FILE), "utf8")) as Partial<LocalServer>;
  } catch {
    return undefined;
  }
  if (typeof held.url !== "string" || typeof held.pid !== "number" || typeof held.token !== "string" || !alive(held.pid)) return undefined;
  return { url: held.url, pid: held.pid, token: held.token };
}
