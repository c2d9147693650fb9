/**
 * Structured logs (pino) with redaction. Log lines carry route templates,
 * codes and counts — never tokens, cookies, session IDs, prompts or turns.
 *
 * Two layers: pino's `redact` paths censor known credential fields by name,
 * and the redaction table (core/redact.ts) masks secrets inside whatever
 * text does reach a line — the message, every string of the logged object
 * and of child bindings, and an error's message and stack (serializers and
 * formatters, then a last look at the finished line).
 */
import { pino, type Logger, type LoggerOptions } from "pino";
import { redactJson, redactText } from "./redact";

export type { Logger };

export const REDACT_PATHS = [
  "authorization",
  "cookie",
  "token",
  "api_key",
  "password",
  "session_id",
  "parent_session_id",
  "secret",
  "client_secret",
  "access_token",
  "refresh_token",
  "apiKey",
  "*.authorization",
  "*.cookie",
  "*.token",
  "*.api_key",
  "*.password",
  "*.session_id",
  "*.parent_session_id",
  "*.secret",
  "*.client_secret",
  "*.access_token",
  "*.refresh_token",
  "*.apiKey",
  'headers["x-codesynapse-session"]',
  'headers["x-codesynapse-parent-session"]',
  // Idempotency keys are client data that may carry anything (docs/jobs.md): never logged.
  'headers["idempotency-key"]',
  '*.headers["idempotency-key"]',
  "idempotency_key",
  "*.idempotency_key",
];

function redactError(err: unknown): unknown {
  if (!(err instanceof Error)) return redactJson(err);
  return redactJson({ ...pino.stdSerializers.err(err) });
}

/**
 * The last look at a finished line (child bindings never pass the formatters): when the table finds something, the line is parsed,
 * every string redacted and the line written again — never cut as text, so it stays valid JSON.
 */
function redactLine(line: string): string {
  if (redactText(line).text === line) return line;
  try {
    return JSON.stringify(redactJson(JSON.parse(line) as unknown)) + "\n";
  } catch {
    return redactText(line).text;
  }
}

/** The redaction part of every logger's options: censored paths, and the table over messages, objects, bindings and errors. */
export const REDACTING_OPTIONS: Pick<LoggerOptions, "redact" | "serializers" | "formatters" | "hooks"> = {
  redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  serializers: {
    msg: (m: unknown) => (typeof m === "string" ? redactText(m).text : m),
    err: redactError,
    error: redactError,
  },
  formatters: {
    log: (obj: Record<string, unknown>) => redactJson(obj),
    bindings: (b: Record<string, unknown>) => redactJson(b),
  },
  hooks: { streamWrite: redactLine },
};

export function createLogger(opts: { level?: string; destination?: "stdout" | "stderr"; name?: string } = {}): Logger {
  return pino(
    {
      ...REDACTING_OPTIONS,
      name: opts.name ?? "codesynapse",
      level: opts.level ?? "info",
      base: { pid: process.pid },
    },
    pino.destination({ fd: opts.destination === "stderr" ? 2 : 1, sync: false }),
  );
}

/** A logger that writes nothing (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
