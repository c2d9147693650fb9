#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx, so no build step is needed.
import { register } from "tsx/esm/api";

register();
await import("../api/cli/main.ts");
