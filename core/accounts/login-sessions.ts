/**
 * Browser sign-in: the cookie holds a random token; only its SHA-256 is stored.
 */
import { AppError } from "../errors";
import { identityRefusal } from "../errors-identity";
import { hashPassword, randomId, randomToken, sha256Hex, verifyPassword } from "../crypto";
import type { Clock } from "../clock";
import { endDashboardBindings } from "../registry/registry";
import type { IdentityStore } from "../identity-store";

// Spent on unknown emails too, so response time does not reveal which exist.
let dummyHash: Promise<string> | undefined;

export async function login(
  store: IdentityStore,
  clock: Clock,
  input: { email: string; password: string; ttlHours: number },
): Promise<{ token: string; expiresAt: Date; userId: string }> {
  const user = await store.userForLogin(input.email.trim().toLowerCase());
  if (!user?.password_hash) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(input.password, await dummyHash);
    throw identityRefusal("login_refused");
  }
  if (!(await verifyPassword(input.password, user.password_hash))) throw identityRefusal("login_refused");
  if (user.suspended_at) throw new AppError("user_suspended");
  const token = randomToken(32);
  const expiresAt = new Date(clock.now().getTime() + input.ttlHours * 3600_000);
  await store.insertLoginSession({ id: randomId("ls"), userId: user.id, tokenHash: sha256Hex(token), expiresAt });
  return { token, expiresAt, userId: user.id };
}

/** Ends the sign-in and, in the same transaction, its dashboard bindings (HTTP-3: unreachable at once). */
export async function logout(store: IdentityStore, clock: Clock, token: string): Promise<void> {
  await store.transaction(async (tx) => {
    const ended = await tx.endLoginSession(sha256Hex(token), clock.now());
    if (ended) await endDashboardBindings(tx, clock, { id: ended.id, userId: ended.user_id });
  });
}
