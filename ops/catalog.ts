/**
 * The catalog: every operation the REST, MCP and CLI mounters serve and the
 * OpenAPI document describes, in the order the reference lists them — a
 * runtime's whole life: sign in or hold a key, register a session, work as
 * it, revoke it — and then the operators' API and the `codesynapse admin`
 * commands.
 */
import { jobChartsOp } from "./admin-charts";
import { ADMIN_COMMANDS } from "./admin-commands";
import { cancelAdminJob, getAdminJob, listAdminJobsOp, replayAdminJobs, retryAdminJob } from "./admin-jobs";
import { getSessionErasure } from "./erasure";
import { registerSessionOp, revokeSessionOp, signIn, signOut, whoAmI } from "./control";
import { getIdentity } from "./identity";
import { recallContext } from "./memory";
import {
  clearSessionMemory,
  exportSessionMemory,
  getNamespaceErasure,
  importSessionMemory,
  offloadTurns,
  promoteSessionFacts,
  readSessionMemory,
  retractSessionFact,
  sessionFactHistory,
  upsertSessionFacts,
} from "./session-memory";
import {
  exportRepositoryMemory,
  forgetSessionWrites,
  importRepositoryMemory,
  indexRepositoryMemory,
  querySubgraph,
  repositoryFactHistory,
  retractRepositoryFact,
  searchGraphNodes,
  upsertGraphTriples,
} from "./repository-memory";
import type { Operation } from "./operation";
import {
  cancelOwnJob,
  getJobStatus,
  jobEvents,
  listOwnJobs,
  submitAiTask,
  submitEmbeddingRefresh,
  submitFixJob,
  submitIngest,
} from "./jobs";
import { discardSnapshotUpload, listSnapshotUploads, uploadSnapshot } from "./uploads";

/**
 * Routes that were removed, declared here so that a caller still learns what replaced them: the
 * REST mounter answers each with 410 `gone` and this message. No operation runs and the OpenAPI
 * document does not list them (a generated client gets no method for a dead route).
 */
export const REMOVED_ROUTES: ReadonlyArray<{ method: "post"; path: string; message: string }> = [
  // The old repository offload endpoint: conversations never silently become shared repository memory.
  { method: "post", path: "/api/v1/repos/:repo/offload", message: "This endpoint has been removed; use POST /session-memory/offload." },
];

export const CATALOG: readonly Operation<any, any, any>[] = [
  // The control plane (ops/control.ts): no execution session.
  signIn,
  signOut,
  whoAmI,
  registerSessionOp,
  revokeSessionOp,
  // Everything else runs as a registered session.
  getIdentity,
  recallContext,
  offloadTurns,
  upsertSessionFacts,
  readSessionMemory,
  retractSessionFact,
  sessionFactHistory,
  exportSessionMemory,
  importSessionMemory,
  clearSessionMemory,
  getNamespaceErasure,
  promoteSessionFacts,
  upsertGraphTriples,
  retractRepositoryFact,
  repositoryFactHistory,
  exportRepositoryMemory,
  importRepositoryMemory,
  forgetSessionWrites,
  indexRepositoryMemory,
  searchGraphNodes,
  querySubgraph,
  uploadSnapshot,
  listSnapshotUploads,
  discardSnapshotUpload,
  submitIngest,
  submitAiTask,
  submitFixJob,
  submitEmbeddingRefresh,
  getJobStatus,
  listOwnJobs,
  cancelOwnJob,
  jobEvents,
  getSessionErasure,
  // The operators': every job (platform admins), and the `codesynapse admin` commands (the local operator).
  listAdminJobsOp,
  getAdminJob,
  cancelAdminJob,
  retryAdminJob,
  replayAdminJobs,
  jobChartsOp,
  ...ADMIN_COMMANDS,
];
