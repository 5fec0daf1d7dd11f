// The search reader's entry when Waymark runs from its TypeScript sources (sqlite-reads.ts): a worker thread
// inherits no loader, so it registers tsx itself, then loads the task. Compiled, the pool runs sqlite-read-task.js.
import { register } from 'tsx/esm/api';

register();
const task = await import('./sqlite-read-task.ts');

export const runReadTask = task.runReadTask;
