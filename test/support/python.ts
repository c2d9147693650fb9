/**
 * Suites that need Python (scripts/python-venv.ts finds it and makes the
 * venvs): skipped with a printed reason without it — unless
 * REQUIRE_SERVICES=1 (CI), which turns the skip into a failure, as for the
 * servers (test/support/services.ts).
 */
import { describe, it } from "vitest";
import type { PythonStatus } from "../../scripts/python-venv";
import { REQUIRE_SERVICES } from "./services";

export { probePython, venv, ROOT, type PythonStatus } from "../../scripts/python-venv";

/** describe() for a suite that needs Python: skipped with a reason without it, a failure under REQUIRE_SERVICES=1. */
export function describeWithPython(status: PythonStatus, title: string, body: () => void): void {
  if (status.available) {
    describe(title, body);
    return;
  }
  if (REQUIRE_SERVICES) {
    describe(title, () => {
      it("requires Python", () => {
        throw new Error(`REQUIRE_SERVICES=1 but ${status.reason}`);
      });
    });
    return;
  }
  console.warn(`[skip] ${title}: ${status.reason}`);
  describe.skip(title, body);
}

