/**
 * The input checks both memories (session memory, engine.ts; repository
 * memory, repository.ts) apply the same way: the refusal naming a field, a
 * redacted entity or node name, an instant given as ISO text, and the ISO
 * form of a stored instant.
 */
import { AppError } from "../errors";
import { MAX_ENTITY_NAME_CHARS } from "../limits";
import { redact } from "../redact";
import { normalizeName } from "./ids";

export function bad(field: string): AppError {
  return new AppError("validation_failed", { message: `The request is not valid: ${field}.`, details: { field } });
}

/** Redacts a name; a name that was (partly) a secret keeps its masked form, cut to the limit. */
export async function cleanName(name: unknown, field: string): Promise<string> {
  if (typeof name !== "string") throw bad(field);
  const n = normalizeName(name);
  if (n.length < 1 || n.length > MAX_ENTITY_NAME_CHARS) throw bad(field);
  return (await redact(n)).text.slice(0, MAX_ENTITY_NAME_CHARS);
}

/** Epoch ms of an optional ISO `as_of` / `observed_at`; undefined when absent. */
export function instant(v: string | number | Date | undefined, field: string): number | undefined {
  if (v === undefined) return undefined;
  const t = v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(v);
  if (!Number.isSafeInteger(t)) throw bad(field);
  return t;
}

/** A stored instant as ISO text; 0 (before validity was recorded) and absent are null. */
export const iso = (ms: number | undefined): string | null => (ms === undefined || ms === 0 ? null : new Date(ms).toISOString());
