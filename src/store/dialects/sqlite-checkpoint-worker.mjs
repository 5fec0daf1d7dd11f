// The checkpoint thread's entry when Waymark runs from its TypeScript sources (sqlite-checkpoints.ts): a worker
// thread inherits no loader, so it registers tsx itself, then loads the task. Compiled, the pool runs
// sqlite-checkpoint-task.js.
import { register } from 'tsx/esm/api';

register();
const task = await import('./sqlite-checkpoint-task.ts');

export const runCheckpointTask = task.runCheckpointTask;
