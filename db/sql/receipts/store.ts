/** The erasure receipts' store (core/retention/receipt-store.ts) over the relational database: one verb per file beside it. */
import type { ErasureReceiptStore } from "../../../core/retention/receipt-store";
import type { Db, Tx } from "../../schema";
import { readNamespaceReceipt } from "./readNamespaceReceipt";
import { readSessionReceipt } from "./readSessionReceipt";
import { retryForgetReceipts } from "./retryForgetReceipts";
import { retryNamespaceReceipts } from "./retryNamespaceReceipts";
import { sessionOwner } from "./sessionOwner";
import { updateForgetReceipt } from "./updateForgetReceipt";
import { updateNamespaceReceipt } from "./updateNamespaceReceipt";
import { updateSessionReceipt } from "./updateSessionReceipt";

export function erasureReceipts(db: Db): ErasureReceiptStore<Tx> {
  return {
    updateSession: (t, now, next) => updateSessionReceipt(db, t, now, next),
    readSession: (sessionId) => readSessionReceipt(db, sessionId),
    updateNamespace: (t, now, next) => updateNamespaceReceipt(db, t, now, next),
    updateForget: (t, now, next) => updateForgetReceipt(db, t, now, next),
    sessionOwner: (sessionId) => sessionOwner(db, sessionId),
    readNamespace: (t) => readNamespaceReceipt(db, t),
    retryNamespaces: (limit, now, redo) => retryNamespaceReceipts(db, limit, now, redo),
    retryForgets: (limit, now, redo) => retryForgetReceipts(db, limit, now, redo),
  };
}
