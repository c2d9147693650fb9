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
 * anything is written (transfer-lines.ts); names and sources are redacted again by the caller.
 */
import { z } from "zod";
import { MAX_IMPORT_LINES } from "../limits";
import { historyOf, singleValuedOf } from "./history";
import { iso } from "./input";
import { factFields, id, name, nodeType, parseTransfer, predicate, versionFields, when, type ParsedTransfer, type TransferFormat } from "./transfer-lines";
import type { ScopeSnapshot } from "./types";

export const EXPORT_FORMAT = "codesynapse.session-memory/1";

const header = z.strictObject({
  kind: z.literal("header"),
  format: z.literal(EXPORT_FORMAT),
  session_id: z.string().min(1).max(256),
  exported_at: when,
  single_valued: z.array(predicate).max(64),
});
const entity = z.strictObject({ kind: z.literal("entity"), id, name, type: nodeType, aliases: z.array(name).max(8).optional() });
const fact = z.strictObject(factFields);
const version = z.strictObject({ ...versionFields, session_id: z.string().min(1).max(256) });
const line = z.discriminatedUnion("kind", [header, entity, fact, version]);

type Line = z.infer<typeof line>;
const FORMAT: TransferFormat<Line, "entity"> = { line, nodeKind: "entity", nodeNoun: "an entity", maxLines: MAX_IMPORT_LINES, checkIntervals: false };

export type ParsedImport = ParsedTransfer<Line, "entity">;

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
      valid_from: iso(f.doc.valid_from),
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
      valid_from: iso(v.valid_from),
      valid_to: new Date(v.valid_to).toISOString(),
      ...(v.observed_at !== undefined ? { observed_at: new Date(v.observed_at).toISOString() } : {}),
      session_id: v.session_id,
      ended: v.ended,
      replaced_by: v.replaced_by,
    });
  }
  return out.map((o) => JSON.stringify(o)).join("\n") + "\n";
}

/** Parses and cross-checks a whole file; throws on the first bad line (nothing is written by a caller that stops here). */
export function parseImport(text: string): ParsedImport {
  return parseTransfer(text, FORMAT);
}
