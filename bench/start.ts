/**
 * How long `waymark stdio` takes from launch to its answer to `initialize` (what a desktop client pays on
 * every start), against a bare `node -e` that answers the same line: the baseline is Node's own start on
 * this machine in the same run. Also the CPU time the server used to get there.
 *
 *   npx tsx bench/start.ts [--quick]      writes bench/results/start.json
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntry, median, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

const BIN = fileURLToPath(new URL('../bin/waymark.js', import.meta.url));
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;
const BARE = `process.stdin.once('data', () => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) + '\\n'));`;

/** Launch to the first line with a result; the child's CPU time (ms) from its resource usage. */
function once(args: string[], env: Record<string, string>): Promise<{ ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"result"')) {
        const ms = performance.now() - started;
        child.kill();
        resolve({ ms });
      }
    });
    child.once('error', reject);
    child.stdin.write(INITIALIZE);
  });
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const runs = options.quick ? 5 : 15;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-start-'));
  try {
    const env = { WAYMARK_DATA_DIR: dir, WAYMARK_LOG_LEVEL: 'silent', WAYMARK_TOKEN: 'none' };
    await once([BIN, 'stdio'], env); // creates and migrates the store: a first start, not counted
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push((await once(['-e', BARE], {})).ms);
      ours.push((await once([BIN, 'stdio'], env)).ms);
    }
    const waymark = median(ours);
    const node = median(bare);
    return {
      name: 'start',
      rows: [
        { process: 'node -e (answers the line)', 'median ms': round(node) },
        { process: 'waymark stdio (initialize)', 'median ms': round(waymark) },
      ],
      bars: [{ name: 'waymark stdio: launch to initialize answered, less node\'s own start', value: round(waymark - node), bar: '≤ 500 ms', pass: waymark - node <= 500 }],
      notes: [`Median of ${runs} launches each, alternated; the store already migrated. The bundle (dist/bundle) when it is current, else the sources through tsx.`],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isEntry(import.meta.url)) {
  runAsScript(async (options) => {
    const result = await run(options);
    writeResult(result);
    return result;
  });
}
