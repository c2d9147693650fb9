/**
 * `codesynapse hook <event> [--runtime R] [--repo REPO]`: what a coding assistant's hook runs.
 *
 * It reads the runtime's hook JSON on stdin (main/hook/payload.ts), registers the thread it names
 * with the user's key (`POST /api/v1/execution/sessions`: idempotent, so every event may do it),
 * prints what the runtime expects from a hook that lets it go on, and exits 0 — whatever
 * happened. A hook must never stand in the assistant's way: a server that is down, a refusal, a
 * malformed input are one line on stderr (the runtime shows or logs it) and the assistant goes on
 * without CodeSynapse for that thread; nothing waits longer than CODESYNAPSE_HOOK_TIMEOUT_MS.
 *
 * What an event means for the binding (docs/identity.md, "Runtimes' own thread IDs"):
 *   - a new ID (startup, `/clear`: Claude Code gives the thread after `/clear` a new ID) is a new
 *     thread, registered here;
 *   - the same ID again (resume, compact, every later event) is the same thread while its binding
 *     lives: registration answers the existing binding;
 *   - an ID whose binding was revoked or expired is refused and stays refused: never reopened,
 *     never replaced by another ID behind the user's back;
 *   - SessionEnd revokes nothing (the thread may be resumed); like every event it registers
 *     idempotently, and it hands over the last turns like Stop.
 * On Stop, PreCompact and SessionEnd with `--repo` and a transcript, the new turns since the last
 * hand-off go to the thread's session memory (main/hook/handoff.ts).
 * The key and the thread ID are never printed.
 */
import { parseArgs } from "node:util";
import { CodeSynapseClient, CodeSynapseError } from "@codesynapse/client";
import { DEFAULT_SERVER_URL } from "../../api/mcp/server-url";
import { handOff } from "./handoff";
import { hookOutput, HookInputError, readHookInput, RUNTIMES, type HookInput, type Runtime } from "./payload";

/** The most stdin a hook reads: a hook input is a small JSON object. */
const MAX_INPUT_BYTES = 1 << 20;
const DEFAULT_TIMEOUT_MS = 5_000;

export interface HookIo {
  stdin: AsyncIterable<Buffer | string> & { isTTY?: boolean };
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

async function readInput(stdin: HookIo["stdin"], signal: AbortSignal): Promise<string> {
  if (stdin.isTTY) return "";
  let size = 0;
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const c of stdin) {
      const b = typeof c === "string" ? Buffer.from(c) : c;
      size += b.length;
      if (size > MAX_INPUT_BYTES) throw new HookInputError("the hook input on stdin is larger than 1 MiB");
      chunks.push(b);
    }
  })();
  const aborted = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new HookInputError("no hook input arrived on stdin in time")), { once: true }));
  await Promise.race([done, aborted]);
  return Buffer.concat(chunks).toString("utf8");
}

function isRuntime(v: unknown): v is Runtime {
  return typeof v === "string" && (RUNTIMES as readonly string[]).includes(v);
}

/** Registers the thread; answers whether it may be used (a line on stderr when not). */
async function register(input: HookInput, url: string, apiKey: string, signal: AbortSignal, say: (line: string) => void): Promise<boolean> {
  try {
    await new CodeSynapseClient({ baseUrl: url, apiKey, sessionId: input.sessionId }).register({ signal });
    return true;
  } catch (err) {
    if (!(err instanceof CodeSynapseError) || err.code === "unreachable" || err.code === "aborted") {
      say(`cannot reach the CodeSynapse server at ${url} (CODESYNAPSE_URL); this thread is not registered and the assistant goes on without it`);
    } else if (err.code === "session_revoked" || err.code === "session_expired") {
      say(`this thread's binding has ended (${err.code}) and is never reopened; start a new thread to use CodeSynapse`);
    } else {
      // The client's message is the server's fixed text and the stable code: never the key or the ID.
      say(`the server refused to register this thread: ${err.message}`);
    }
    return false;
  }
}

/** Runs one hook; always answers 0 (the non-blocking exit of every supported runtime). */
export async function runHook(argv: string[], env: NodeJS.ProcessEnv, io: HookIo): Promise<0> {
  const say = (line: string) => void io.stderr.write(`codesynapse hook: ${line}\n`);
  let output = "";
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: false,
      allowPositionals: true,
      options: { runtime: { type: "string" }, repo: { type: "string" }, url: { type: "string" } },
    });
    const runtime = values.runtime;
    if (runtime !== undefined && !isRuntime(runtime)) {
      say(`unknown --runtime (one of ${RUNTIMES.join(", ")})`);
      return 0;
    }
    if (runtime) output = hookOutput({ runtime, event: "other" });
    const timeoutMs = Number(env.CODESYNAPSE_HOOK_TIMEOUT_MS) > 0 ? Number(env.CODESYNAPSE_HOOK_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    const text = await readInput(io.stdin, signal);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HookInputError("the hook input on stdin is not JSON");
    }
    const event = typeof positionals[0] === "string" ? positionals[0] : undefined;
    const input = readHookInput(json, { ...(event ? { event } : {}), ...(runtime ? { runtime } : {}), env });
    output = hookOutput(input);
    const apiKey = env.CODESYNAPSE_API_KEY;
    if (!apiKey) {
      say("missing CODESYNAPSE_API_KEY; this thread is not registered");
      return 0;
    }
    const url = (typeof values.url === "string" ? values.url : env.CODESYNAPSE_URL || DEFAULT_SERVER_URL).replace(/\/+$/, "");
    if (!(await register(input, url, apiKey, signal, say))) return 0;
    const repo = typeof values.repo === "string" ? values.repo : env.CODESYNAPSE_REPO;
    if (repo && input.transcriptPath && (input.event === "stop" || input.event === "pre_compact" || input.event === "session_end")) {
      await handOff({ input, url, apiKey, repo, env, signal, say });
    }
  } catch (err) {
    say(err instanceof HookInputError ? err.message : `failed: ${err instanceof Error ? err.name : "error"}`);
  } finally {
    io.stdout.write(output);
  }
  return 0;
}
