/**
 * Refusals of a request body that say what to do: every 413 names the limit it hit (in KiB/MiB,
 * and the variable that sets it where one does), every 415 names the content types the route
 * accepts. One place for the wording; api/http.ts (JSON routes) and api/raw-body.ts (the raw
 * archive route) use it. No refusal quotes what the client sent.
 */
import { AppError } from "../core/errors";

/** The content types a JSON route accepts. */
export const JSON_TYPES = ["application/json", "application/*+json"];

/** The content types the snapshot upload route accepts (a missing Content-Type is accepted too). */
export const ARCHIVE_TYPES = [
  "application/octet-stream",
  "application/gzip",
  "application/x-gzip",
  "application/x-tar",
  "application/x-gtar",
  "application/zip",
  "application/x-zip-compressed",
];

/** 33554432 → "32 MiB", 262144 → "256 KiB", 1500 → "1.5 KiB", 100 → "100 bytes". */
export function formatBytes(n: number): string {
  const unit = (size: number, name: string) => {
    const v = n / size;
    return `${Number.isInteger(v) ? v : v.toFixed(1)} ${name}`;
  };
  if (n >= 1024 * 1024) return unit(1024 * 1024, "MiB");
  if (n >= 1024) return unit(1024, "KiB");
  return `${n} bytes`;
}

/** 413 for a JSON body over the API's fixed limit. */
export function jsonTooLarge(limitBytes: number): AppError {
  return new AppError("payload_too_large", {
    message: `The request body is larger than ${formatBytes(limitBytes)}, the most a JSON request body may be.`,
    details: { limit: "json_body_bytes", max_bytes: limitBytes },
  });
}

/** 413 for a snapshot archive over INGEST_MAX_UPLOAD_BYTES. */
export function archiveTooLarge(limitBytes: number): AppError {
  return new AppError("payload_too_large", {
    message:
      `The archive is larger than ${formatBytes(limitBytes)}, this server's INGEST_MAX_UPLOAD_BYTES. Upload only the ` +
      "files the repository tracks (git archive --format=tar.gz HEAD leaves out .git, node_modules and ignored files), " +
      "or raise INGEST_MAX_UPLOAD_BYTES.",
    details: { limit: "INGEST_MAX_UPLOAD_BYTES", max_bytes: limitBytes },
  });
}

/** 415 for a body on a JSON route that is not JSON. */
export function notJson(): AppError {
  return new AppError("unsupported_media_type", {
    message: "The request body must be JSON, sent with Content-Type: application/json.",
    details: { expected: JSON_TYPES },
  });
}

/** 415 for a JSON body whose charset is not UTF-8, or a Content-Encoding the server does not decode. */
export function unsupportedBodyEncoding(kind: "charset" | "encoding"): AppError {
  return kind === "charset"
    ? new AppError("unsupported_media_type", {
        message: "The request body's charset is not supported: send JSON as UTF-8 (Content-Type: application/json; charset=utf-8).",
        details: { expected: JSON_TYPES, charset: "utf-8" },
      })
    : new AppError("unsupported_media_type", {
        message: "The request body's Content-Encoding is not supported: send it uncompressed, or gzip, deflate or br encoded.",
        details: { content_encodings: ["identity", "gzip", "deflate", "br"] },
      });
}

/** 415 for a body on the upload route that is not an archive's raw bytes. */
export function notAnArchive(): AppError {
  return new AppError("unsupported_media_type", {
    message:
      "Send the archive (tar, tar.gz or zip) as the raw request body with Content-Type: application/octet-stream " +
      `(${ARCHIVE_TYPES.slice(1).join(", ")} are accepted too), not as JSON or a form.`,
    details: { expected: ARCHIVE_TYPES },
  });
}

/**
 * A body-parser error (express.json / express.raw) as the platform's error, or undefined when `err`
 * is not one. `tooLarge` words the 413 for the route's limit.
 */
export function fromBodyParser(err: unknown, tooLarge: (limitBytes: number) => AppError = jsonTooLarge): AppError | undefined {
  const e = err as { type?: unknown; limit?: unknown } | null;
  switch (e?.type) {
    case "entity.too.large":
      return typeof e.limit === "number" ? tooLarge(e.limit) : new AppError("payload_too_large");
    case "entity.parse.failed":
      return new AppError("validation_failed", { message: "The request body is not valid JSON." });
    case "charset.unsupported":
      return unsupportedBodyEncoding("charset");
    case "encoding.unsupported":
      return unsupportedBodyEncoding("encoding");
    default:
      return undefined;
  }
}
