/** The recorded erasure receipt of an ended session (core/retention/receipts.ts), for whoever may revoke it. */
import { z } from "zod";
import { idString } from "../core/boundary";
import { readSessionErasure } from "../core/retention/receipts";
import { defineOperation } from "./operation";

export const sessionErasureReceipt = z.object({
  session_id: z.string(),
  cause: z.enum(["revoked", "expired"]),
  ended_at: z.string(),
  stores: z.array(
    z.object({
      store: z.string().describe("A cleaner: session-memory (graph and vectors), ingest-uploads, idempotency-keys, job-quotes (AI/fix job parameters and results)."),
      removed: z.number().int().describe("Items removed or redacted by every pass so far."),
      status: z.enum(["done", "pending"]),
    }),
  ),
  passes: z.number().int().describe("Cleanup passes recorded (the revocation's own, then the sweep's retries every minute)."),
  done: z.boolean(),
  updated_at: z.string().nullable(),
});

export const getSessionErasure = defineOperation({
  name: "execution.session_erasure",
  title: "Erasure receipt of an ended session",
  description:
    "After a session is revoked (DELETE /api/v1/execution/sessions/{id}) or expires, its data is erased by a first pass at once " +
    "and by the cleanup sweep's retries every minute until every store is done. This answers what each store removed so far and " +
    "whether it is done: {session_id, cause, ended_at, stores: [{store, removed, status}], passes, done, updated_at}. Call it from " +
    "another live session of the same user (or as an owner/admin of the organisation); a session that is still live is 404 not_found.",
  input: { session_id: idString().describe("The ended session's ID.") },
  output: sessionErasureReceipt,
  http: [{ method: "get", path: "/api/v1/execution/sessions/:session_id/erasure" }],
  mcp: { tool: "get_session_erasure", readOnly: true },
  run: async (call, input) =>
    readSessionErasure(call.services.stores.receipts, { orgId: call.principal.orgId, userId: call.principal.userId, role: call.principal.role ?? "" }, input.session_id),
});
