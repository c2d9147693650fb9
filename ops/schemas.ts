/** Schemas more than one operation uses: one definition, one set of bounds (core/limits.ts). */
import { z } from "zod";
import { idString, nonBlankId, textString } from "../core/boundary";
import { MAX_ENTITY_NAME_CHARS, MAX_RECALL_LIMIT, MAX_RECALL_QUERY_CHARS, MAX_SOURCE_CHARS, MAX_TRIPLES_PER_UPSERT } from "../core/limits";

/** A repository: its id, or its name within the caller's organisation (RUN-7). */
export const repoRef = idString().describe("The repository: its id, or its name within your organisation.");

const entityName = nonBlankId(MAX_ENTITY_NAME_CHARS);
const entityType = z.string().regex(/^[A-Za-z0-9_.:-]{0,64}$/);

export const triple = z.strictObject({
  subject: entityName,
  predicate: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  object: entityName,
  subject_type: entityType.optional(),
  object_type: entityType.optional(),
});

export const triples = z
  .array(triple)
  .min(1)
  .max(MAX_TRIPLES_PER_UPSERT)
  .describe(
    'Triples like {"subject": "AuthService", "predicate": "depends_on", "object": "TokenStore", "subject_type": "class", "object_type": "class"}. ' +
      "Predicates match ^[a-z][a-z0-9_]{0,63}$; names are 1-256 characters; types are optional.",
  );

export const source = textString(MAX_SOURCE_CHARS).optional().describe("Where the facts come from (a file, a turn); stored redacted.");
export const recallQuery = textString(MAX_RECALL_QUERY_CHARS).min(1).describe("What to look for, in plain words.");
export const recallLimit = z.number().int().min(1).max(MAX_RECALL_LIMIT).optional().describe(`At most this many results (1-${MAX_RECALL_LIMIT}, default 10).`);

// Outputs.
export const entityView = z.object({ id: z.string(), name: z.string(), type: z.string(), aliases: z.array(z.string()).optional() });
export const factView = z.object({ fact_id: z.string(), subject: entityView, predicate: z.string(), object: entityView });
export const factIds = z.object({ fact_id: z.string(), subject_id: z.string(), predicate: z.string(), object_id: z.string() });
export const recallResults = z.object({
  results: z.array(
    factView.extend({
      score: z.number(),
      source: z.string().optional().describe("Where the fact came from, as it was stored (redacted), when it was given."),
      origin_session_id: z
        .string()
        .nullable()
        .optional()
        .describe("Repository memory only: the session that wrote the fact (null for records older than the field)."),
    }),
  ),
});
export const repoNode = z.object({ id: z.string(), label: z.string(), name: z.string(), type: z.string(), origin_session_id: z.string().nullable() });
