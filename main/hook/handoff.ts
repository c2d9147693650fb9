/**
 * Memory from the runtime's own turns: on Stop, PreCompact and SessionEnd, the turns a Claude Code
 * transcript (JSONL) gained since the last hand-off go to this thread's session memory
 * (`POST /api/v1/repos/{repo}/session-memory/offload`, the local extractor; ops/memory.ts).
 *
 * Where the last hand-off ended is a byte offset kept in a small state file per thread under the
 * user's data directory (CODESYNAPSE_HOOK_STATE_DIR, default `~/.codesynapse/hooks/`; the file is
 * named by a SHA-256 of the thread ID, readable by its owner only). The offset moves only past
 * turns the server accepted, so a hand-off that failed is offered again by the next hook.
 * Bounded: at most MAX_READ_BYTES of new transcript and MAX_REQUESTS offload calls per hook (the
 * rest waits for the next hook), every turn cut to the server's limits; two hooks of one thread
 * at once do not both hand off (a lock file). It never blocks the runtime: every failure is one
 * line on stderr.
 */
import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { CodeSynapseClient, CodeSynapseError } from "@codesynapse/client";
import { MAX_OFFLOAD_TOTAL_CHARS, MAX_OFFLOAD_TURN_CHARS, MAX_OFFLOAD_TURNS } from "../../core/limits";
import type { HookInput } from "./payload";

const MAX_READ_BYTES = 512 * 1024;
const MAX_REQUESTS = 4;
/** A lock older than this was left by a hook that died: taken over. */
const STALE_LOCK_MS = 60_000;

export interface Turn {
  role: "user" | "assistant" | "tool";
  content: string;
  /** The transcript entry's `uuid`: the server cites it as the source of what it extracts. */
  id?: string;
}

/** A transcript entry's uuid, when it passes the boundary's ID rule (with room for a suffix). */
const TURN_ID = /^[A-Za-z0-9._:-]{1,120}$/;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: unknown) => (typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text" ? String((b as { text?: unknown }).text ?? "") : ""))
    .filter((t) => t.length > 0)
    .join("\n");
}

/** The turns of one transcript line (Claude Code's JSONL: `{type, message: {role, content}}`); none for anything else. */
export function turnsOfLine(line: string): Turn[] {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return [];
  }
  if (typeof entry !== "object" || entry === null) return [];
  const e = entry as { type?: unknown; uuid?: unknown; isSidechain?: unknown; isMeta?: unknown; message?: { role?: unknown; content?: unknown } };
  if (e.isSidechain === true || e.isMeta === true || (e.type !== "user" && e.type !== "assistant") || typeof e.message !== "object" || e.message === null) return [];
  const out: Turn[] = [];
  const content = e.message.content;
  if (e.type === "user" && Array.isArray(content)) {
    for (const b of content as unknown[]) {
      if (typeof b === "object" && b !== null && (b as { type?: unknown }).type === "tool_result") out.push({ role: "tool", content: textOf((b as { content?: unknown }).content) });
    }
  }
  const said = textOf(content);
  if (said.length > 0) out.push({ role: e.type, content: said });
  const uuid = typeof e.uuid === "string" && TURN_ID.test(e.uuid) ? e.uuid : undefined;
  const kept = out.filter((t) => t.content.trim().length > 0);
  return kept.map((t, i) => ({
    role: t.role,
    content: t.content.slice(0, MAX_OFFLOAD_TURN_CHARS),
    // One entry may hold tool results and text: each gets its own ID.
    ...(uuid ? { id: kept.length > 1 ? `${uuid}.${i + 1}` : uuid } : {}),
  }));
}

export function stateDir(env: NodeJS.ProcessEnv): string {
  return env.CODESYNAPSE_HOOK_STATE_DIR || path.join(homedir(), ".codesynapse", "hooks");
}

function stateFile(env: NodeJS.ProcessEnv, sessionId: string): string {
  return path.join(stateDir(env), `${createHash("sha256").update(sessionId).digest("hex")}.json`);
}

async function readOffset(file: string): Promise<number> {
  try {
    const offset = (JSON.parse(await readFile(file, "utf8")) as { offset?: unknown }).offset;
    return typeof offset === "number" && Number.isSafeInteger(offset) && offset >= 0 ? offset : 0;
  } catch {
    return 0;
  }
}

async function writeOffset(file: string, offset: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ offset })}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

/** Takes the thread's lock, or answers false while another hook of the thread holds it. */
async function lock(file: string): Promise<boolean> {
  const at = `${file}.lock`;
  try {
    await (await open(at, "wx", 0o600)).close();
    return true;
  } catch {
    const held = await stat(at).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs < STALE_LOCK_MS) return false;
    await rm(at, { force: true });
    return lock(file);
  }
}

/** The complete lines of a transcript from `offset`, bounded: their turns and the offset after the last one. */
export async function newTurns(transcript: string, offset: number): Promise<{ lines: Array<{ end: number; turns: Turn[] }>; size: number }> {
  const fh = await open(transcript, "r");
  try {
    const { size } = await fh.stat();
    // A transcript shorter than the offset was replaced: start again from its beginning.
    const from = offset > size ? 0 : offset;
    const buf = Buffer.alloc(Math.min(MAX_READ_BYTES, size - from));
    const { bytesRead } = await fh.read(buf, 0, buf.length, from);
    const lines: Array<{ end: number; turns: Turn[] }> = [];
    let start = 0;
    for (let i = 0; i < bytesRead; i++) {
      if (buf[i] !== 0x0a) continue;
      lines.push({ end: from + i + 1, turns: turnsOfLine(buf.subarray(start, i).toString("utf8")) });
      start = i + 1;
    }
    // One line longer than the whole window: skipped, so it never stops the hand-offs behind it.
    if (lines.length === 0 && bytesRead === MAX_READ_BYTES) lines.push({ end: from + bytesRead, turns: [] });
    return { lines, size };
  } finally {
    await fh.close();
  }
}

/** Groups lines into offload requests within the server's limits (turns and characters per request). */
export function batches(lines: Array<{ end: number; turns: Turn[] }>): Array<{ end: number; turns: Turn[] }> {
  const out: Array<{ end: number; turns: Turn[] }> = [];
  let cur: { end: number; turns: Turn[]; chars: number } | undefined;
  for (const line of lines) {
    const chars = line.turns.reduce((n, t) => n + t.content.length, 0);
    if (cur && (cur.turns.length + line.turns.length > MAX_OFFLOAD_TURNS || cur.chars + chars > MAX_OFFLOAD_TOTAL_CHARS)) {
      out.push({ end: cur.end, turns: cur.turns });
      cur = undefined;
    }
    cur ??= { end: line.end, turns: [], chars: 0 };
    // A single line beyond a request's limits is cut to them.
    for (const t of line.turns) {
      if (cur.turns.length >= MAX_OFFLOAD_TURNS || cur.chars + t.content.length > MAX_OFFLOAD_TOTAL_CHARS) break;
      cur.turns.push(t);
      cur.chars += t.content.length;
    }
    cur.end = line.end;
  }
  if (cur) out.push({ end: cur.end, turns: cur.turns });
  return out;
}

export interface HandOff {
  input: HookInput;
  url: string;
  apiKey: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  say: (line: string) => void;
}

/** Hands the transcript's new turns to the thread's session memory; answers how many turns were accepted. */
export async function handOff({ input, url, apiKey, repo, env, signal, say }: HandOff): Promise<number> {
  if (input.runtime !== "claude-code" || !input.transcriptPath) return 0;
  const file = stateFile(env, input.sessionId);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!(await lock(file))) return 0;
  let accepted = 0;
  try {
    let offset = await readOffset(file);
    let read;
    try {
      read = await newTurns(input.transcriptPath, offset);
    } catch {
      say("cannot read the transcript this hook names; no turns handed over");
      return 0;
    }
    if (offset > read.size) offset = 0;
    const client = new CodeSynapseClient({ baseUrl: url, apiKey, sessionId: input.sessionId });
    let requests = 0;
    for (const batch of batches(read.lines)) {
      if (batch.turns.length > 0) {
        if (requests === MAX_REQUESTS) break;
        requests++;
        try {
          accepted += (await client.call("session_memory.offload", { repo, turns: batch.turns }, { signal })).accepted;
        } catch (err) {
          const why = err instanceof CodeSynapseError && err.code !== "unreachable" && err.code !== "aborted" ? `the server refused them: ${err.message}` : `the server at ${url} did not answer`;
          say(`turns not handed over (${why}); the next hook offers them again`);
          break;
        }
      }
      offset = batch.end;
      await writeOffset(file, offset);
    }
  } finally {
    await rm(`${file}.lock`, { force: true });
  }
  return accepted;
}
