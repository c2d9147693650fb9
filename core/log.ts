/**
 * Structured logs (pino) with redaction. Log lines carry route templates,
 * codes and counts — never tokens, cookies, session IDs, prompts or turns.
 */
import { pino, type Logger } from "pino";

export type { Logger };

export const REDACT_PATHS = [
  "authorization",
  "cookie",
  "token",
  "api_key",
  "password",
  "session_id",
  "parent_session_id",
  "*.authorization",
  "*.cookie",
  "*.token",
  "*.api_key",
  "*.password",
  "*.session_id",
  "*.parent_session_id",
  'headers["x-codesynapse-session"]',
  'headers["x-codesynapse-parent-session"]',
];

export function createLogger(opts: { level?: string; destination?: "stdout" | "stderr"; name?: string } = {}): Logger {
  return pino(
    {
      name: opts.name ?? "codesynapse",
      level: opts.level ?? "info",
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      base: { pid: process.pid },
    },
    pino.destination({ fd: opts.destination === "stderr" ? 2 : 1, sync: false }),
  );
}

/** A logger that writes nothing (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
