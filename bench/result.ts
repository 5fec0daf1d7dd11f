/**
 * What every bench module returns and writes: a table (`rows`), the bars it checks (`bars`, each a ratio
 * measured in the same run against a baseline) and notes. bench/run.ts gathers them into one report.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BenchResult {
  name: string;
  rows: Array<Record<string, string | number>>;
  bars: Array<{ name: string; value: number; bar: string; pass: boolean }>;
  notes?: string[];
}

export interface BenchOptions {
  /** A short form of the bench (smaller stores, fewer rounds), for CI and a first look. */
  quick?: boolean;
}

export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** Writes bench/results/<name>.json and returns its path. */
export function writeResult(result: BenchResult): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}${result.name}.json`;
  writeFileSync(path, `${JSON.stringify({ ...result, when: new Date().toISOString() }, null, 2)}\n`);
  return path;
}

/** True when the module at `moduleUrl` is the one node was started with (`npx tsx bench/<file>.ts`). */
export function isEntry(moduleUrl: string): boolean {
  return Boolean(process.argv[1]) && fileURLToPath(moduleUrl) === process.argv[1];
}

/** Runs a bench as a script: `--quick` from the command line, the table printed, the process ended. */
export function runAsScript(run: (options?: BenchOptions) => Promise<BenchResult>): void {
  run({ quick: process.argv.includes('--quick') }).then(
    (result) => {
      console.log(formatResult(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** The value at quantile q (0..1) of samples already sorted ascending. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export function median(samples: readonly number[]): number {
  return quantile([...samples].sort((a, b) => a - b), 0.5);
}

/** Rounds for tables: 3 significant digits below 100, whole numbers above. */
export function round(n: number): number {
  if (!Number.isFinite(n)) return n;
  if (Math.abs(n) >= 100) return Math.round(n);
  return Number(n.toPrecision(3));
}

/** A plain-text table of the rows and the bars, for the console. */
export function formatResult(result: BenchResult): string {
  const lines = [`== ${result.name} ==`];
  if (result.rows.length > 0) {
    const columns = [...new Set(result.rows.flatMap((r) => Object.keys(r)))];
    const cell = (v: string | number | undefined) => (v === undefined ? '' : String(v));
    const widths = columns.map((c) => Math.max(c.length, ...result.rows.map((r) => cell(r[c]).length)));
    lines.push(columns.map((c, i) => c.padEnd(widths[i] as number)).join('  '));
    for (const row of result.rows) lines.push(columns.map((c, i) => cell(row[c]).padEnd(widths[i] as number)).join('  '));
  }
  for (const bar of result.bars) lines.push(`${bar.pass ? 'PASS' : 'FAIL'}  ${bar.name}: ${bar.value} (bar ${bar.bar})`);
  for (const note of result.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}
