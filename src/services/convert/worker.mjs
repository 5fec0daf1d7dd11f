// The conversion worker's entry when Waymark runs from its TypeScript sources (convert/pool.ts). A worker
// thread does not inherit the tsx loader the main thread registered (bin/waymark.js), nor vitest's: it
// registers tsx itself, then loads the task. Compiled, the pool runs convert/task.ts directly.
import { register } from 'tsx/esm/api';

register();
const task = await import('./task.ts');

export const runConvertTask = task.runConvertTask;
