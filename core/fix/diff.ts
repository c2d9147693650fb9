/**
 * Unified diffs of fix proposals (WRK-5), made by jsdiff (`diff`): one file's
 * change as a `git apply` patch (`diff --git a/… b/…`, `--- a/…`, `+++ b/…`,
 * hunks with 3 lines of context, the "No newline at end of file" marker).
 * Any edit — lines added, removed or changed — is expressed exactly.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

const CONTEXT = 3;

/** The patch that turns `before` into `after` for `file` (relative, `/`-separated); "" when equal. */
export function filePatch(file: string, before: string, after: string): string {
  if (before === after) return "";
  const body = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: CONTEXT, headerOptions: FILE_HEADERS_ONLY });
  return `diff --git a/${file} b/${file}\n${body}`;
}

/** A light shape check of a unified diff an LLM returned: file headers and at least one hunk. */
export function looksLikeUnifiedDiff(text: string): boolean {
  return /^--- (a\/|\/dev\/null)\S*/m.test(text) && /^\+\+\+ (b\/|\/dev\/null)\S*/m.test(text) && /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(text);
}
