/** @codesynapse/client: the typed client CodeSynapse runtimes use (README.md). */
export { CodeSynapseClient, PARENT_HEADER, SESSION_HEADER, type CallOptions, type ClientOptions, type RequestOptions, type RouteSpec } from "./client";
export { CodeSynapseError, type ClientErrorCode, type ErrorCode } from "./errors";
export { TERMINAL_STATUSES, type JobStatus, type JobSubmission, type JobView, type UploadInfo, type WaitOptions } from "./jobs";
export type { Identity, Input, OperationId, Output, PlatformErrorCode } from "./types";
export type { components, operations, paths } from "./generated/api";

import { CodeSynapseClient, type CallOptions, type ClientOptions } from "./client";

/** A client for one chat thread whose session is registered (or was already: registration is idempotent). */
export async function connect(options: ClientOptions, call?: CallOptions): Promise<CodeSynapseClient> {
  const client = new CodeSynapseClient(options);
  await client.register(call);
  return client;
}
