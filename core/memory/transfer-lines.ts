/**
 * What the two memory transfer formats share (session memory, transfer.ts;
 * repository memory, repository-transfer.ts): the field grammars, the fields
 * of a fact line and of a history line, and the one parser that splits,
 * validates and cross-checks a file before anything is written.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { MAX_ENTITY_NAME_CHARS, MAX_IMPORT_CHARS, MAX_SOURCE_CHARS } from "../limits";

export const id = z.string().min(1).max(128);
export const when = z.string().datetime({ offset: true }).max(64);
export const predicate = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/);
export const name = z.string().min(1).max(MAX_ENTITY_NAME_CHARS);
export const nodeType = z.string().regex(/^[A-Za-z0-9_.:-]{0,64}$/);

/** The fields every fact line has; a format adds its own. */
export const factFields = {
  kind: z.literal("fact"),
  fact_id: id,
  subject_id: id,
  predicate,
  object_id: id,
  source: z.string().max(MAX_SOURCE_CHARS).optional(),
  valid_from: when.nullable(),
  observed_at: when.optional(),
};

/** The fields every history line has (a fact's ended interval); a format adds who learned and ended it. */
export const versionFields = {
  ...factFields,
  kind: z.literal("history"),
  valid_to: when,
  ended: z.enum(["superseded", "retracted"]),
  replaced_by: z.array(id).max(512),
};

export function invalidLine(n: number, why: string): AppError {
  return new AppError("validation_failed", { message: `The import is not valid: line ${n}: ${why}.`, details: { field: "lines", line: n } });
}

/** A line of either format: a header, a node (what the format calls it), a fact, a history entry. */
type Line = { kind: string };
type Endpoints = { subject_id: string; object_id: string };

export interface TransferFormat<L extends Line, N extends string> {
  /** The discriminated union of the format's lines. */
  line: z.ZodType<L>;
  /** The kind of the lines that facts link ("entity", "node"), and how errors name one ("an entity", "a node"). */
  nodeKind: N;
  nodeNoun: string;
  maxLines: number;
  /** Refuse a history entry that ends before it starts (otherwise the importer clamps it). */
  checkIntervals: boolean;
}

export interface ParsedTransfer<L extends Line, N extends string> {
  header: Extract<L, { kind: "header" }>;
  nodes: Array<Extract<L, { kind: N }>>;
  facts: Array<Extract<L, { kind: "fact" }>>;
  history: Array<Extract<L, { kind: "history" }>>;
}

/**
 * Splits and validates JSON Lines: at most MAX_IMPORT_CHARS characters and
 * `maxLines` non-empty lines, the first line (and only it) the header; node
 * IDs unique, every fact's and history entry's endpoints nodes of the file.
 * Throws on the first bad line (nothing is written by a caller that stops here).
 */
export function parseTransfer<L extends Line, N extends string>(text: string, format: TransferFormat<L, N>): ParsedTransfer<L, N> {
  const parsed = { header: undefined, nodes: [], facts: [], history: [] } as unknown as ParsedTransfer<L, N>;
  for (const d of readLines(text, format.line, format.maxLines)) {
    if (d.kind === "header") parsed.header = d as Extract<L, { kind: "header" }>;
    else if (d.kind === format.nodeKind) parsed.nodes.push(d as Extract<L, { kind: N }>);
    else if (d.kind === "fact") parsed.facts.push(d as Extract<L, { kind: "fact" }>);
    else parsed.history.push(d as Extract<L, { kind: "history" }>);
  }
  const ids = new Set<string>();
  for (const n of parsed.nodes as unknown as Array<{ id: string }>) {
    if (ids.has(n.id)) throw invalidLine(0, `duplicate ${format.nodeKind} id`);
    ids.add(n.id);
  }
  for (const f of [...parsed.facts, ...parsed.history] as unknown as Endpoints[]) {
    if (!ids.has(f.subject_id) || !ids.has(f.object_id)) throw invalidLine(0, `fact endpoint is not ${format.nodeNoun} of the file`);
  }
  if (format.checkIntervals) {
    const history = parsed.history as unknown as Array<{ valid_from: string | null; valid_to: string }>;
    if (history.some((v) => Date.parse(v.valid_to) < (v.valid_from === null ? 0 : Date.parse(v.valid_from)))) throw invalidLine(0, "history interval ends before it starts");
  }
  if (!parsed.header) throw new AppError("validation_failed", { details: { field: "lines" } });
  return parsed;
}

function readLines<L extends Line>(text: string, line: z.ZodType<L>, maxLines: number): L[] {
  if (typeof text !== "string" || text.length > MAX_IMPORT_CHARS) throw new AppError("validation_failed", { details: { field: "lines" } });
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
