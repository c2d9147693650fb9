/**
 * Every answer passes its operation's output schema before it leaves (the
 * published contract is the truth: a field a handler adds must not reach a
 * client undocumented, and a generated client must be able to parse every
 * answer).
 *
 * Inputs: the operation, the body `run` answered, the mode
 * (OUTPUT_SCHEMA_MISMATCH). Outcomes:
 *   conforms            the body as it is;
 *   extra fields only   `strip` (production): the parsed body — zod drops the
 *                       fields the schema lacks — with a warning naming the
 *                       operation and the field paths (never a value) and the
 *                       metric codesynapse_output_schema_mismatches_total
 *                       {operation, kind="extra_field"}; `fail` (tests): 500;
 *   anything else       (a missing field, a wrong type): 500 `internal` in both
 *                       modes, counted as kind="invalid": a client could not
 *                       read it, so it is a bug to see at once, not to send.
 * Streams are checked per event, against the binding's `events` schemas.
 */
import { Counter, type Registry } from "prom-client";
import type { z } from "zod";
import { AppError } from "../core/errors";
import type { Logger } from "../core/log";

export type MismatchMode = "strip" | "fail";

export interface OutputCheck {
  mode: MismatchMode;
  logger: Logger;
  registry?: Registry | undefined;
}

const counters = new WeakMap<Registry, Counter<"operation" | "kind">>();

function counterOf(registry: Registry): Counter<"operation" | "kind"> {
  let c = counters.get(registry);
  if (!c) {
    c = (registry.getSingleMetric("codesynapse_output_schema_mismatches_total") as Counter<"operation" | "kind"> | undefined) ??
      new Counter({
        name: "codesynapse_output_schema_mismatches_total",
        help: "Answers that broke their operation's output schema: extra_field (stripped before sending) or invalid (answered 500).",
        labelNames: ["operation", "kind"] as const,
        registers: [registry],
      });
    counters.set(registry, c);
  }
  return c;
}

/** Paths of the object keys in `sent` that `parsed` (the schema's view of it) dropped; `undefined` values do not count. */
export function droppedFields(sent: unknown, parsed: unknown, at = ""): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((v, i) => droppedFields(v, parsed[i], `${at}${at ? "." : ""}${i}`));
  if (!sent || typeof sent !== "object" || !parsed || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(sent)) {
    if (v === undefined) continue;
    const path = `${at}${at ? "." : ""}${k}`;
    if (!(k in parsed)) out.push(path);
    else out.push(...droppedFields(v, (parsed as Record<string, unknown>)[k], path));
  }
  return out;
}

/**
 * The body to send for `body`, an answer of operation `name` under `schema`; throws AppError
 * `internal` when it may not be sent (see the file's comment).
 */
export function conformOutput(name: string, schema: z.ZodType, body: unknown, check: OutputCheck): unknown {
  const r = schema.safeParse(body);
  if (!r.success) {
    const paths = [...new Set(r.error.issues.map((i) => i.path.join(".") || "(body)"))].slice(0, 20);
    if (check.registry) counterOf(check.registry).inc({ operation: name, kind: "invalid" });
    check.logger.error({ operation: name, paths }, "answer does not match its output schema");
    throw new AppError("internal", { cause: new Error(`${name}: the answer does not match its output schema at ${paths.join(", ")}`) });
  }
  const extra = droppedFields(body, r.data);
  if (extra.length === 0) return body;
  if (check.registry) counterOf(check.registry).inc({ operation: name, kind: "extra_field" });
  if (check.mode === "fail") {
    check.logger.error({ operation: name, fields: extra.slice(0, 20) }, "answer has fields its output schema lacks");
    throw new AppError("internal", { cause: new Error(`${name}: the answer has fields its output schema lacks: ${extra.slice(0, 20).join(", ")}`) });
  }
  check.logger.warn({ operation: name, fields: extra.slice(0, 20) }, "answer has fields its output schema lacks; they were not sent");
  return r.data;
}
