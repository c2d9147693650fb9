/**
 * Browser sign-in: the cookie holds a random token; only its SHA-256 is stored.
 */
import { AppError } from "../errors";
import { identityRefusal } from "../errors-identity";
import { hashPassword, randomId, randomToken, sha256Hex, verifyPassword } from "../crypto";
import type { Clock } from "../clock";
import { endDashboardBindings } from "../registry/registry";
import type { Db } from "../../db/schema";
import { inTransaction } from "../transaction";

// Spent on unknown emails too, so response time does not reveal which exist.
let dummyHash: Promise<string> | undefined;

export async function login(
  db: Db,
  clock: Clock,
  input: { email: string; password: string; ttlHours: number },
): Promise<{ token: string; expiresAt: Date; userId: string }> {
  const user = await db
    .selectFrom("users")
    .select(["id", "password_hash", "suspended_at"])
    .where("email", "=", input.email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user?.password_hash) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(input.password, await dummyHash);
    throw identityRefusal("login_refused");
  }
  if (!(await verifyPassword(input.password, user.password_hash))) throw identityRefusal("login_refused");
  if (user.suspended_at) throw new AppError("user_suspended");
  const token = randomToken(32);
  const expiresAt = new Date(clock.now().getTime() + input.ttlHours * 3600_000);
  await db
    .insertInto("login_sessions")
    .values({ id: randomId("ls"), user_id: user.id, token_hash: sha256Hex(token), expires_at: expiresAt, revoked_at: null })
    .execute();
  return { token, expiresAt, userId: user.id };
}

/** Ends the sign-in and, in the same transaction, its dashboard bindings (HTTP-3: unreachable at once). */
export async function logout(db: Db, clock: Clock, token: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const ended = await tx
      .updateTable("login_sessions")
      .set({ revoked_at: clock.now() })
      .where("token_hash", "=", sha256Hex(token))
      .where("revoked_at", "is", null)
      .returning(["id", "user_id"])
      .executeTakeFirst();
    if (ended) await endDashboardBindings(tx, clock, { id: ended.id, userId: ended.user_id });
  });
}
