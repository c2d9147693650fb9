/**
 * The raw (not JSON) request bodies an operation's HTTP binding may take
 * (`HttpBinding.raw`): their content types, size limit and refusals. Checked
 * by the REST mounter (api/operations.ts) in this order: turned off (a limit
 * of 0, 403), not one of the types (415 naming them) — both before anything is
 * counted — then, once the operation's repository check has passed, the body
 * is read only when `run` asks (413 naming the limit).
 */
import express, { type Request, type Response } from "express";
import type { Config } from "../core/config";
import { AppError } from "../core/errors";
import { archiveTooLarge, ARCHIVE_TYPES, fromBodyParser, notAnArchive } from "./body-errors";

export interface RawBody {
  types: readonly string[];
  /** Bytes; 0 turns the route off. */
  limit(config: Config): number;
  off: string;
  wrongType(): AppError;
  tooLarge(limitBytes: number): AppError;
}

export const RAW_BODIES: Record<"archive", RawBody> = {
  archive: {
    types: ARCHIVE_TYPES,
    limit: (config) => config.INGEST_MAX_UPLOAD_BYTES,
    off: "Snapshot uploads are turned off on this server (its INGEST_MAX_UPLOAD_BYTES setting is 0).",
    wrongType: notAnArchive,
    tooLarge: archiveTooLarge,
  },
};

/** Refuses a request a raw route cannot take, before anything is counted or read. A missing Content-Type is accepted. */
export function checkRaw(kind: RawBody, config: Config, req: Request): void {
  if (kind.limit(config) === 0) throw new AppError("forbidden", { message: kind.off });
  if (req.headers["content-type"] !== undefined && req.is([...kind.types]) === false) throw kind.wrongType();
}

/** Reads the raw body (at most the kind's limit); undefined when there is none. */
export function rawReader(kind: RawBody, config: Config, req: Request, res: Response): () => Promise<Buffer | undefined> {
  const parse = express.raw({ type: () => true, limit: Math.max(1, kind.limit(config)) });
  return () =>
    new Promise((resolve, reject) =>
      parse(req, res, (err?: unknown) => {
        if (err !== undefined) reject(fromBodyParser(err, kind.tooLarge) ?? err);
        else resolve(Buffer.isBuffer(req.body) ? req.body : undefined);
      }),
    );
}
