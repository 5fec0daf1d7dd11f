/**
 * How long `waymark stdio` takes from launch to its answer to `initialize` (what a desktop client pays on
 * every start), against Node's own start on this machine in the same run: a bare `node -e` that answers the
 * same line. Issue 25's bar is the ratio of the two (≤ 3×). Also, for the whole picture, when the client's next
 * request is answered: `tools/list`, sent as a client sends it, once the `initialize` answer is read. stdio answers
 * the handshake before it loads the store and the tools (src/mcp/stdio-door.ts), so that second figure holds
 * what the first no longer does.
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
const LIST = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;
const BARE = `process.stdin.once('data', () => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) + '\\n'));`;
/** Issue 25: launch to the initialize answer within this many times Node's own start. */
const RATIO_BAR = 3;

/** Whether the text read so far holds the whole answer to the request with this id (a line, ended). */
function answered(out: string, id: number): boolean {
  return out
    .split('\n')
    .slice(0, -1)
    .some((line) => line.includes(`"id":${id}`) && (line.includes('"result"') || line.includes('"error"')));
}

/**
 * Launch to the first answer (ms); with `list`, also to the answer to tools/list, sent once the first is read.
 */
function once(args: string[], env: Record<string, string>, list = false): Promise<{ ms: number; listMs?: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let ms: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (ms === undefined && answered(out, 1)) {
        ms = performance.now() - started;
        if (!list) {
          child.kill();
          resolve({ ms });
          return;
        }
        child.stdin.write(LIST);
      }
      if (list && ms !== undefined && answered(out, 2)) {
        const listMs = performance.now() - started;
        child.kill();
        resolve({ ms, listMs });
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (signal === null) reject(new Error(`${args.join(' ')} exited with ${code} before answering`));
    });
    child.stdin.write(INITIALIZE);
  });
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const runs = options.quick ? 5 : 15;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-start-'));
  try {
    const env = { WAYMARK_DATA_DIR: dir, WAYMARK_LOG_LEVEL: 'silent', WAYMARK_TOKEN: 'none' };
    await once([BIN, 'stdio'], env, true); // creates and migrates the store: a first start, not counted
    const bare: number[] = [];
    const ours: number[] = [];
    const listed: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push((await once(['-e', BARE], {})).ms);
      const stdio = await once([BIN, 'stdio'], env, true);
      ours.push(stdio.ms);
      listed.push(stdio.listMs as number);
    }
    const node = median(bare);
    const waymark = median(ours);
    const list = median(listed);
    const ratio = waymark / node;
    return {
      name: 'start',
      rows: [
        { process: 'node -e (answers the line)', 'median ms': round(node), '× node': 1 },
        { process: 'waymark stdio: initialize answered', 'median ms': round(waymark), '× node': round(ratio) },
        { process: 'waymark stdio: then tools/list answered', 'median ms': round(list), '× node': round(list / node) },
      ],
      bars: [
        { name: "waymark stdio: launch to initialize answered, against node's own start (issue 25)", value: round(ratio), bar: `≤ ${RATIO_BAR}×`, pass: ratio <= RATIO_BAR },
        { name: "waymark stdio: launch to initialize answered, less node's own start", value: round(waymark - node), bar: '≤ 500 ms', pass: waymark - node <= 500 },
      ],
      notes: [
        `Median of ${runs} launches each, alternated; the store already migrated; each launch timed from spawn to the answer read by this process. tools/list is sent when the initialize answer is read, with notifications/initialized, as a client does. The bundle (dist/bundle) when it is current, else the sources through tsx.`,
      ],
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
