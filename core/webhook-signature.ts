/**
 * Webhook signatures, Stripe's scheme: the header
 *
 *   CodeSynapse-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * A receiver recomputes the HMAC over the timestamp, a dot and the raw request
 * body (the bytes, before any JSON parsing), compares it in constant time with
 * every `v1` the header carries, and refuses a timestamp older than its
 * tolerance (replays). Pure functions: the sender and the docs' receiver use them.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "codesynapse-signature";
/** Default tolerance for the timestamp, in seconds (Stripe's). */
export const SIGNATURE_TOLERANCE_S = 300;

export function signatureOf(secret: string, timestampS: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestampS}.${body}`).digest("hex");
}

export function signatureHeader(secret: string, timestampS: number, body: string): string {
  return `t=${timestampS},v1=${signatureOf(secret, timestampS, body)}`;
}

/** True when `header` carries a valid v1 signature of `body` under `secret`, made within the tolerance. */
export function verifySignature(secret: string, header: string | undefined, body: string, opts: { nowS?: number; toleranceS?: number } = {}): boolean {
  if (!header) return false;
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t)) return false;
  const now = opts.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (opts.toleranceS ?? SIGNATURE_TOLERANCE_S)) return false;
  const expected = Buffer.from(signatureOf(secret, t, body), "hex");
  return parts.some(([k, v]) => {
    if (k !== "v1" || !v || !/^[0-9a-f]{64}$/.test(v)) return false;
    return timingSafeEqual(expected, Buffer.from(v, "hex"));
  });
}
