import type { Operation } from '../operations/operation.js';

/**
 * Where a command writes and what environment it reads: the process's own when `bin/waymark.js` runs it, or
 * buffers and a given environment when a test calls `main` in process (no child process to start).
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Operations served beside Waymark's own by `serve` and `stdio` (the tool-call bench's no-op tool). */
  extraOperations?: readonly Operation[];
}

/** Exit codes scripts can branch on; `changes`: `waymark import --check` found the folder and Waymark apart. */
export const EXIT = { ok: 0, failure: 1, usage: 2, changes: 3 } as const;
