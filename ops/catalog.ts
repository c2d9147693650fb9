/**
 * The catalog: every operation the REST and MCP mounters serve and the
 * OpenAPI document describes, in the order the reference lists them.
 */
import { getIdentity } from "./identity";
import {
  clearSessionMemory,
  indexRepositoryMemory,
  offloadTurns,
  promoteSessionFacts,
  querySubgraph,
  readSessionMemory,
  recallContext,
  searchGraphNodes,
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
  clearSessionMemory,
  promoteSessionFacts,
  upsertGraphTriples,
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
];
