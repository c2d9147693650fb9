/**
 * The catalog: every operation the REST and MCP mounters serve and the
 * OpenAPI document describes, in the order the reference lists them.
 */
import { getSessionErasure } from "./erasure";
import { getIdentity } from "./identity";
import {
  clearSessionMemory,
  exportSessionMemory,
  forgetSessionWrites,
  importSessionMemory,
  indexRepositoryMemory,
  offloadTurns,
  promoteSessionFacts,
  querySubgraph,
  readSessionMemory,
  recallContext,
  retractSessionFact,
  searchGraphNodes,
  sessionFactHistory,
  upsertGraphTriples,
  upsertSessionFacts,
} from "./memory";
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

export const CATALOG: readonly Operation<any, any>[] = [
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
  promoteSessionFacts,
  upsertGraphTriples,
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
];
