/**
 * Export and import of one session namespace as JSON Lines.
 *
 * Format `codesynapse.session-memory/1`, one JSON object a line:
 *   {"kind":"header","format":…,"session_id":…,"exported_at":ISO,"single_valued":[…]}   (first line, once)
 *   {"kind":"entity","id":…,"name":…,"type":…,"aliases":[…]}
 *   {"kind":"fact","fact_id":…,"subject_id":…,"predicate":…,"object_id":…,"source"?,"valid_from":ISO|null,"observed_at"?}
 *   {"kind":"history","fact_id":…,…,"valid_from":ISO|null,"valid_to":ISO,"session_id":…,"ended":…,"replaced_by":[…]}
 * Vectors are not exported; the importer re-embeds. IDs in a file are the
 * exporter's and only link lines of the same file: import derives new IDs
 * for the target scope, so a file can never name or reach another scope.
 *
 * `parseImport` validates every line (shape, references, bounds) before
 * anything is written; names and sources are redacted again by the caller.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { MAX_ENTITY_NAME_CHARS, MAX_IMPORT_CHARS, MAX_IMPORT_LINES, MAX_SOURCE_CHARS } from "../limits";
import { historyOf, singleValuedOf } from "./history";
import type { ScopeSnapshot } from "./types";

export const EXPORT_FORMAT = "codesynapse.session-memory/1";

/** Field grammars shared with the repository-memory format (repository-transfer.ts). */
export const id = z.string().min(1).max(128);
export const when = z.string().datetime({ offset: true }).max(64);
export const predicate = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/);
export const name = z.string().min(1).max(MAX_ENTITY_NAME_CHARS);

const header = z.strictObject({
  kind: z.literal("header"),
  format: z.literal(EXPORT_FORMAT),
  session_id: z.string().min(1).max(256),
  exported_at: when,
  single_valued: z.array(predicate).max(64),
});
const entity = z.strictObject({
  kind: z.literal("entity"),
  id,
  name,
  type: z.string().regex(/^[A-Za-z0-9_.:-]{0,64}$/),
  aliases: z.array(name).max(8).optional(),
});
const fact = z.strictObject({
  kind: z.literal("fact"),
  fact_id: id,
  subject_id: id,
  predicate,
  object_id: id,
  source: z.string().max(MAX_SOURCE_CHARS).optional(),
  valid_from: when.nullable(),
  observed_at: when.optional(),
});
const version = z.strictObject({
  kind: z.literal("history"),
  fact_id: id,
  subject_id: id,
  predicate,
  object_id: id,
  source: z.string().max(MAX_SOURCE_CHARS).optional(),
  valid_from: when.nullable(),
  valid_to: when,
  observed_at: when.optional(),
  session_id: z.string().min(1).max(256),
  ended: z.enum(["superseded", "retracted"]),
  replaced_by: z.array(id).max(512),
});
const line = z.discriminatedUnion("kind", [header, entity, fact, version]);

export type ImportHeader = z.infer<typeof header>;
export type ImportEntity = z.infer<typeof entity>;
export type ImportFact = z.infer<typeof fact>;
export type ImportVersion = z.infer<typeof version>;

export interface ParsedImport {
  header: ImportHeader;
  entities: ImportEntity[];
  facts: ImportFact[];
  history: ImportVersion[];
}

const isoOrNull = (ms: number | undefined) => (ms === undefined || ms === 0 ? null : new Date(ms).toISOString());

/** The namespace as JSON Lines (entities, live facts, history; no vectors). */
export function exportLines(s: ScopeSnapshot, exportedAt: number): string {
  const out: unknown[] = [
    { kind: "header", format: EXPORT_FORMAT, session_id: s.key.session_id, exported_at: new Date(exportedAt).toISOString(), single_valued: singleValuedOf(s) },
  ];
  for (const e of s.entities) out.push({ kind: "entity", id: e.id, name: e.name, type: e.type, ...(e.doc.aliases?.length ? { aliases: e.doc.aliases } : {}) });
  for (const f of s.facts) {
    out.push({
      kind: "fact",
      fact_id: f.fact_id,
      subject_id: f.subject_id,
      predicate: f.predicate,
      object_id: f.object_id,
      ...(f.doc.source !== undefined ? { source: f.doc.source } : {}),
      valid_from: isoOrNull(f.doc.valid_from),
      ...(f.doc.observed_at !== undefined ? { observed_at: new Date(f.doc.observed_at).toISOString() } : {}),
    });
  }
  for (const v of historyOf(s)) {
    out.push({
      kind: "history",
      fact_id: v.fact_id,
      subject_id: v.subject_id,
      predicate: v.predicate,
      object_id: v.object_id,
      ...(v.source !== undefined ? { source: v.source } : {}),
      valid_from: isoOrNull(v.valid_from),
      valid_to: new Date(v.valid_to).toISOString(),
      ...(v.observed_at !== undefined ? { observed_at: new Date(v.observed_at).toISOString() } : {}),
      session_id: v.session_id,
      ended: v.ended,
      replaced_by: v.replaced_by,
    });
  }
  return out.map((o) => JSON.stringify(o)).join("\n") + "\n";
}

export function invalidLine(n: number, why: string): AppError {
  return new AppError("validation_failed", { message: `The import is not valid: line ${n}: ${why}.`, details: { field: "lines", line: n } });
}

/**
 * Splits and validates JSON Lines against a discriminated line schema: at most `maxChars` characters and
 * `maxLines` non-empty lines, the first line (and only it) of kind "header". Throws on the first bad line.
 */
export function readLines<T extends { kind: string }>(text: string, line: z.ZodType<T>, maxChars: number, maxLines: number): T[] {
  if (typeof text !== "string" || text.length > maxChars) throw new AppError("validation_failed", { details: { field: "lines" } });
  const raw = text.split("\n").filter((l) => l.trim().length > 0);
  if (raw.length === 0) throw invalidLine(1, "empty");
  if (raw.length > maxLines) throw new AppError("validation_failed", { message: "The import has too many lines.", details: { field: "lines" } });
  return raw.map((l, i) => {
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      throw invalidLine(i + 1, "not JSON");
    }
    const r = line.safeParse(v);
    if (!r.success) throw invalidLine(i + 1, "unexpected shape");
    if (r.data.kind === "header" && i !== 0) throw invalidLine(i + 1, "header not first");
    if (r.data.kind !== "header" && i === 0) throw invalidLine(1, "no header");
    return r.data;
  });
}

/** Parses and cross-checks a whole file; throws on the first bad line (nothing is written by a caller that stops here). */
export function parseImport(text: string): ParsedImport {
  const parsed: ParsedImport = { header: undefined as unknown as ImportHeader, entities: [], facts: [], history: [] };
  for (const d of readLines(text, line, MAX_IMPORT_CHARS, MAX_IMPORT_LINES)) {
    if (d.kind === "header") parsed.header = d;
    else if (d.kind === "entity") parsed.entities.push(d);
    else if (d.kind === "fact") parsed.facts.push(d);
    else parsed.history.push(d);
  }
  const ids = new Set<string>();
  for (const e of parsed.entities) {
    if (ids.has(e.id)) throw invalidLine(0, "duplicate entity id");
    ids.add(e.id);
  }
  for (const f of [...parsed.facts, ...parsed.history]) {
    if (!ids.has(f.subject_id) || !ids.has(f.object_id)) throw invalidLine(0, "fact endpoint is not an entity of the file");
  }
  return parsed;
}
