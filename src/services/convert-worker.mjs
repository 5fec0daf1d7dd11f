// The conversion worker's entry (convert-pool.ts). A worker thread does not inherit the tsx loader the main
// thread registered (bin/waymark.js), nor vitest's: it registers tsx itself, then loads the TypeScript task.
import { register } from 'tsx/esm/api';

register();
const { runConvertTask } = await import('./convert-task.ts');

export default runConvertTask;
