/** Schemas of the session-memory validity, history and erasure operations (ops/memory.ts). */
import { z } from "zod";
import { entityView, factView } from "./schemas";

export const sessionFactId = z.string().regex(/^sf_[0-9a-f]{32}$/).describe('A fact_id of this thread\'s session memory ("sf_…").');

export const asOf = z.iso
  .datetime({ offset: true })
  .optional()
  .describe("Answer what the thread believed at this time (platform clock): the facts current then, including ones since superseded or retracted.");

/** A fact as reads show it: when it became current (null for facts stored before validity was recorded). */
export const liveFact = factView.extend({ source: z.string().optional(), valid_from: z.string().nullable(), observed_at: z.string().optional() });

export const factHistory = z.strictObject({
  fact_id: z.string(),
  versions: z.array(
    z.strictObject({
      fact_id: z.string(),
      subject: entityView,
      predicate: z.string(),
      object: entityView,
      source: z.string().optional(),
      valid_from: z.string().nullable(),
      valid_to: z.string().nullable(),
      observed_at: z.string().optional(),
      session_id: z.string(),
      status: z.enum(["current", "superseded", "retracted"]),
      replaced_by: z.array(z.string()),
    }),
  ),
});

export const erasureReceipt = z.strictObject({
  scope: z.enum(["namespace", "session", "promoted"]),
  session_id: z.string(),
  stores: z.array(
    z.strictObject({
      store: z.string(),
      entities: z.number().int(),
      facts: z.number().int(),
      history: z.number().int(),
      rows: z.number().int().optional().describe("Relational stores (jobs:results, jobs:idempotency): rows erased."),
      status: z.enum(["done", "pending"]),
    }),
  ),
  done: z.boolean(),
});

export const repoFactId = z.string().regex(/^rf_[0-9a-f]{32}$/).describe('A fact_id of the repository\'s durable memory ("rf_…").');

/** One interval of a durable fact: who wrote it (session_id), when, who ended it and what replaced it. */
export const repoFactHistory = z.strictObject({
  fact_id: z.string(),
  versions: z.array(
    z.strictObject({
      fact_id: z.string(),
      subject: entityView,
      predicate: z.string(),
      object: entityView,
      origin_session_id: z.string().nullable().describe("The session that wrote the fact (null for a write without one)."),
      source: z.string().optional(),
      valid_from: z.string().nullable(),
      valid_to: z.string().nullable(),
      observed_at: z.string().optional(),
      ended_by: z.string().nullable().describe("The session whose write ended this interval (null while current, or once that session was forgotten)."),
      status: z.enum(["current", "superseded", "retracted"]),
      replaced_by: z.array(z.string()),
    }),
  ),
});

/** What offload extraction did in one namespace, running totals (counts only). */
export const extractionCounts = z.object({
  offloads: z.number().int().describe("Offload calls processed."),
  turns: z.number().int(),
  statements: z.number().int().describe("Durable statements the extractor found."),
  stored: z.number().int().describe("Statements stored as new facts."),
  repeats: z.number().int().describe("Statements that repeated a stored one (no new fact)."),
  superseded: z.number().int().describe("Facts a correction or a new value replaced (kept in history)."),
  dropped: z.number().int().describe("Extracted facts dropped to keep the namespace within its limits."),
  shortened: z.number().int().describe("Statements cut to fit the namespace's size."),
  last_at: z.string().optional().describe("When extraction last wrote (ISO 8601)."),
});
