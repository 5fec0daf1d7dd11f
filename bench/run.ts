/**
 * `npm run bench`: every bench, one after the other, gathered into bench/results/report.json and
 * bench/results/REPORT.md (one table per bench, then its bars with pass or fail), with a summary printed.
 *
 *   npm run bench                   the full run (about 20 minutes on 2 CPUs)
 *   npm run bench -- --quick        the short form of every bench (a few minutes)
 *   npm run bench -- --only=tool-call,memory   some of them
 *
 * Every figure is a ratio against a baseline measured in the same run. The older benches (convert,
 * fidelity, search) return their own shapes; they are turned into BenchResult here. A bench that throws is
 * reported as such and the others still run; the command then exits 1. Bars that are not met do not fail it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { formatResult, RESULTS_DIR, round, type BenchOptions, type BenchResult } from './result.js';

type Runner = (options: BenchOptions) => Promise<BenchResult>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A result that already has the BenchResult shape (connect.ts adds `details` beside it). */
function asBenchResult(value: unknown, name: string): BenchResult {
  if (isRecord(value) && Array.isArray(value.rows) && Array.isArray(value.bars)) {
    return { name: typeof value.name === 'string' ? value.name : name, rows: value.rows as BenchResult['rows'], bars: value.bars as BenchResult['bars'], notes: Array.isArray(value.notes) ? (value.notes as string[]) : [] };
  }
  throw new Error(`${name}: unknown result shape`);
}

const convert: Runner = async ({ quick }) => {
  const mod = await import('./convert.js');
  // Best of 5 rounds rather than convert.ts's own 9: the same figure within noise, in half the time.
  const runs = quick ? mod.run([['1 MB', 1 << 20]], 3) : mod.run(undefined, 5);
  writeFileSync(`${RESULTS_DIR}convert.json`, JSON.stringify(runs, null, 2));
  return {
    name: 'convert',
    rows: runs.map((r) => ({
      body: r.label,
      'JSON bytes': r.jsonBytes,
      'markdown bytes': r.markdownBytes,
      'markdownToBody ms': round(r.markdownToBodyMs),
      'markdown-it ms': round(r.markdownItParseMs),
      'parse ×': round(r.parseRatio),
      'bodyToMarkdown ms': round(r.bodyToMarkdownMs),
      'JSON.stringify ms': round(r.jsonStringifyMs),
      'render ×': round(r.renderRatio),
    })),
    bars: runs.flatMap((r) => [
      { name: `${r.label}: markdownToBody vs a bare markdown-it parse`, value: round(r.parseRatio), bar: '≤ 1.5×', pass: r.parseRatio <= 1.5 },
      { name: `${r.label}: bodyToMarkdown vs JSON.stringify`, value: round(r.renderRatio), bar: '≤ 4×', pass: r.renderRatio <= 4 },
    ]),
    notes: [`Best of ${quick ? 3 : 5} rounds each (pure CPU work); markdownToBody with every anchor kept, as update_bit writes back.`, ...(quick ? ['Quick run: 1 MB only, 3 rounds.'] : [])],
  };
};

const fidelity: Runner = async () => {
  const mod = await import('./fidelity.js');
  const suites = mod.runFidelity();
  writeFileSync(`${RESULTS_DIR}fidelity.json`, JSON.stringify(suites, null, 2));
  const nested = (s: (typeof suites)[number]) => s.failures.filter((f) => f.category.startsWith('nested emphasis')).length;
  return {
    name: 'fidelity',
    rows: suites.map((s) => ({
      suite: s.suite,
      examples: s.total,
      converted: s.converted,
      kept: s.kept,
      'kept %': round(s.keptPercent),
      'idempotent %': round(s.idempotentPercent),
      failures: s.failures.length,
      'of which nested emphasis': nested(s),
    })),
    bars: suites.flatMap((s) => [
      { name: `${s.suite}: round trip keeps the rendered HTML`, value: round(s.keptPercent), bar: '≥ 96%', pass: s.keptPercent >= 96 },
      { name: `${s.suite}: a second round trip changes nothing`, value: round(s.idempotentPercent), bar: '= 100%', pass: s.idempotentPercent >= 100 },
    ]),
    notes: ['markdown → Slate → markdown, compared by the HTML markdown-it renders of each; failures with their categories in bench/results/fidelity.json.'],
  };
};

interface SearchWord {
  word: string;
  hits: number;
  mcp: { median_ms: number; p95_ms: number };
  direct: { median_ms: number; p95_ms: number };
  median_ratio: number;
}

const search: Runner = async ({ quick }) => {
  if (quick) {
    process.env.BENCH_SEARCH_REFERENCES ??= '10000';
    process.env.BENCH_SEARCH_ITERATIONS ??= '20';
  }
  const mod = await import('./search.js');
  const raw = await mod.run();
  const rows: BenchResult['rows'] = [];
  const bars: BenchResult['bars'] = [];
  for (const [engine, value] of Object.entries(raw)) {
    if (!isRecord(value) || !isRecord(value.words)) continue;
    for (const [kind, w] of Object.entries(value.words as Record<string, SearchWord>)) {
      rows.push({ engine, references: Number(value.references), query: `${kind} '${w.word}'`, hits: w.hits, 'MCP median ms': w.mcp.median_ms, 'direct median ms': w.direct.median_ms, 'MCP p95 ms': w.mcp.p95_ms, '× direct': w.median_ratio });
      bars.push({ name: `${engine}: search_references '${w.word}' median vs the direct query`, value: w.median_ratio, bar: '≤ 1.5×', pass: w.median_ratio <= 1.5 });
    }
    if (isRecord(value.paging)) {
      const ok = value.paging.ok === true;
      bars.push({ name: `${engine}: paging returns every hit exactly once`, value: ok ? 1 : 0, bar: '= 1', pass: ok });
    }
  }
  return { name: 'search', rows, bars, notes: [`${String(raw.bar)}; ${quick ? 'quick run: 10k references' : 'the references count is in the table'}. Details in bench/results/search.json.`] };
};

const connect: Runner = async (options) => {
  const url = new URL('./connect.ts', import.meta.url);
  if (!existsSync(fileURLToPath(url))) throw new Error('bench/connect.ts is not present');
  const mod = (await import(url.href)) as { run: (o: BenchOptions) => Promise<unknown> };
  return asBenchResult(await mod.run(options), 'connect');
};

const own = (file: string): Runner => async (options) => {
  const mod = (await import(file)) as { run: (o: BenchOptions) => Promise<BenchResult> };
  return mod.run(options);
};

const BENCHES: Array<{ name: string; run: Runner; optional?: boolean }> = [
  { name: 'convert', run: convert },
  { name: 'fidelity', run: fidelity },
  { name: 'search', run: search },
  { name: 'connect', run: connect, optional: true },
  { name: 'tool-call', run: own('./tool-call.js') },
  { name: 'scaling', run: own('./scaling.js') },
  { name: 'memory', run: own('./memory.js') },
  { name: 'agent-cost', run: own('./agent-cost.js') },
  { name: 'http-vs-sdk', run: own('./http-vs-sdk.js') },
  { name: 'start', run: own('./start.js') },
  { name: 'save', run: own('./save.js') },
  { name: 'history', run: own('./history.js') },
  { name: 'scale', run: own('./scale.js') },
  { name: 'webhooks', run: own('./webhooks.js') },
];

function cell(value: string | number | undefined): string {
  return value === undefined ? '' : String(value).replace(/\|/g, '\\|');
}

function markdownTable(rows: BenchResult['rows']): string {
  if (rows.length === 0) return '';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [`| ${columns.map(cell).join(' | ')} |`, `| ${columns.map((c) => (typeof rows.find((r) => r[c] !== undefined)?.[c] === 'number' ? '--:' : '--')).join(' | ')} |`, ...rows.map((r) => `| ${columns.map((c) => cell(r[c])).join(' | ')} |`)].join('\n');
}

interface Report {
  when: string;
  quick: boolean;
  machine: { cpus: number; cpu: string; node: string; platform: string; load_at_start: number; load_at_end?: number };
  seconds: Record<string, number>;
  results: BenchResult[];
  errors: Array<{ bench: string; error: string }>;
  /** Benches re-run alone (--only) after the run this report started with. */
  rerun?: string[];
}

function reportMarkdown(report: Report): string {
  const lines: string[] = [
    '# Waymark benchmarks',
    '',
    `${report.when}${report.quick ? ' (quick run)' : ''}; ${report.machine.cpus} × ${report.machine.cpu}, Node ${report.machine.node}; load average ${report.machine.load_at_start} at the start, ${report.machine.load_at_end ?? '?'} at the end (other work on the machine slows every side of a comparison, not always equally). Every figure is a ratio against a baseline measured in the same run; reproduce with \`npm run bench${report.quick ? ' -- --quick' : ''}\`.`,
    ...(report.rerun && report.rerun.length > 0 ? ['', `Re-run alone since: ${report.rerun.join('; ')} (\`npm run bench -- --only=<names>\`).`] : []),
    '',
    '## Bars',
    '',
    '| bench | bar | value | needed | result |',
    '| -- | -- | --: | -- | -- |',
    ...report.results.flatMap((r) => r.bars.map((b) => `| ${r.name} | ${cell(b.name)} | ${b.value} | ${cell(b.bar)} | ${b.pass ? 'pass' : '**FAIL**'} |`)),
    ...report.errors.map((e) => `| ${e.bench} | the bench ran | – | – | **ERROR**: ${cell(e.error.split('\n')[0])} |`),
    '',
  ];
  for (const r of report.results) {
    lines.push(`## ${r.name}`, '', `(${report.seconds[r.name] ?? '?'} s)`, '', markdownTable(r.rows), '');
    for (const b of r.bars) lines.push(`- ${b.pass ? 'pass' : '**FAIL**'}: ${b.name}: ${b.value} (bar ${b.bar})`);
    if (r.bars.length > 0) lines.push('');
    for (const n of r.notes ?? []) lines.push(`> ${n}`, '>');
    if ((r.notes ?? []).length > 0) lines.pop();
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

async function main(): Promise<number> {
  const quick = process.argv.includes('--quick');
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const report: Report = {
    when: new Date().toISOString(),
    quick,
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: process.platform, load_at_start: round(loadavg()[0] ?? 0) },
    seconds: {},
    results: [],
    errors: [],
  };
  const started = performance.now();
  for (const bench of BENCHES) {
    if (only && !only.has(bench.name)) continue;
    if (bench.optional && !existsSync(fileURLToPath(new URL(`./${bench.name}.ts`, import.meta.url)))) {
      console.log(`[bench] ${bench.name}: not present, skipped`);
      continue;
    }
    console.log(`[bench] ${bench.name}${quick ? ' (quick)' : ''} …`);
    const t = performance.now();
    try {
      const result = await bench.run({ quick });
      report.results.push(result);
      console.log(formatResult(result));
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      report.errors.push({ bench: bench.name, error: text });
      console.error(`[bench] ${bench.name} failed: ${text}`);
    }
    report.seconds[bench.name] = Math.round((performance.now() - t) / 1000);
    console.log(`[bench] ${bench.name}: ${report.seconds[bench.name]} s`);
  }
  report.machine.load_at_end = round(loadavg()[0] ?? 0);
  // --only re-runs some benches: the others keep their results of the last report.
  const previousPath = `${RESULTS_DIR}report.json`;
  if (only && existsSync(previousPath)) {
    const previous = JSON.parse(readFileSync(previousPath, 'utf8')) as Report;
    const rerun = new Set([...report.results.map((r) => r.name), ...report.errors.map((e) => e.bench)]);
    const order = BENCHES.map((b) => b.name);
    report.results = [...previous.results.filter((r) => !rerun.has(r.name)), ...report.results].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    report.errors = [...previous.errors.filter((e) => !rerun.has(e.bench)), ...report.errors];
    report.seconds = { ...previous.seconds, ...report.seconds };
    const stamped = (entry: string) => entry.split(' at ')[0] as string;
    report.rerun = [...(previous.rerun ?? []).filter((entry) => !rerun.has(stamped(entry))), ...[...rerun].map((name) => `${name} at ${report.when}`)];
    report.when = previous.when;
  }
  writeFileSync(previousPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${RESULTS_DIR}REPORT.md`, reportMarkdown(report));

  const bars = report.results.flatMap((r) => r.bars.map((b) => ({ bench: r.name, ...b })));
  console.log(`\n==== summary (${Math.round((performance.now() - started) / 1000)} s${quick ? ', quick' : ''}) ====`);
  for (const b of bars) console.log(`${b.pass ? 'PASS' : 'FAIL'}  [${b.bench}] ${b.name}: ${b.value} (bar ${b.bar})`);
  for (const e of report.errors) console.log(`ERROR [${e.bench}] ${e.error.split('\n')[0]}`);
  console.log(`${bars.filter((b) => b.pass).length}/${bars.length} bars met; ${report.errors.length} bench error(s). Written bench/results/report.json and bench/results/REPORT.md`);
  return report.errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
