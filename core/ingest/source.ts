/**
 * Where an ingest snapshot may come from (WRK-2). Two sources:
 *  - a local path, allowed only when — after resolving `..` and every symlink
 *    (realpath) — it is one of INGEST_ALLOWED_ROOTS or inside one;
 *  - a git URL, allowed only when its `scheme://host` is on INGEST_GIT_ALLOWED.
 * Refusals are one fixed message: the rejected path or URL is never echoed.
 * (The third source, an uploaded archive, is ./uploads.ts.)
 */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";

/** The setting that decides each source field: a refusal names it, so an operator knows what to change. */
const SETTING_OF: Record<string, string> = { path: "INGEST_ALLOWED_ROOTS", git_url: "INGEST_GIT_ALLOWED" };

export function notAllowed(field: string): AppError {
  const setting = SETTING_OF[field];
  const message =
    field === "path"
      ? "This path is not an existing directory under one the server allows: the server's INGEST_ALLOWED_ROOTS setting lists them."
      : field === "git_url"
        ? "This git URL's scheme and host are not allowed: the server's INGEST_GIT_ALLOWED setting lists them (and a URL may not carry credentials)."
        : "This snapshot source is not allowed by the server's configuration.";
  return new AppError("forbidden", { message, details: { field, ...(setting ? { setting } : {}) } });
}

function list(raw: string): string[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The configured roots, resolved (missing roots are dropped). */
export async function allowedRoots(raw: string): Promise<string[]> {
  const out: string[] = [];
  for (const r of list(raw)) {
    if (!path.isAbsolute(r)) continue;
    const real = await realpath(r).catch(() => null);
    if (real) out.push(real);
  }
  return out;
}

export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The real directory a caller's local path names, or a refusal (`forbidden`, path not echoed). */
export async function resolveLocalSource(raw: string, allowedRootsConfig: string): Promise<string> {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 4096 || raw.includes("\0") || !path.isAbsolute(raw)) throw notAllowed("path");
  const roots = await allowedRoots(allowedRootsConfig);
  if (roots.length === 0) throw notAllowed("path");
  // Lexical check first (no filesystem probing outside the roots), then the real one.
  const lexical = path.resolve(raw);
  if (!list(allowedRootsConfig).some((r) => path.isAbsolute(r) && isInside(path.resolve(r), lexical)) && !roots.some((r) => isInside(r, lexical))) throw notAllowed("path");
  const real = await realpath(lexical).catch(() => null);
  if (!real || !roots.some((r) => isInside(r, real))) throw notAllowed("path");
  const st = await stat(real).catch(() => null);
  if (!st?.isDirectory()) throw notAllowed("path");
  return real;
}

/** A git URL whose `scheme://host` prefix is allowed; credentials in the URL are refused. */
export function checkGitUrl(raw: string, allowedConfig: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw notAllowed("git_url");
  }
  if (!["https:", "http:", "ssh:", "file:"].includes(u.protocol) || u.username || u.password || raw.length > 2048) throw notAllowed("git_url");
  const ok = list(allowedConfig).some((a) => {
    try {
      const p = new URL(a);
      return p.protocol === u.protocol && p.host === u.host;
    } catch {
      return false;
    }
  });
  if (!ok) throw notAllowed("git_url");
  return u;
}
