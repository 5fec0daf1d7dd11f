/**
 * Converter speed on large bodies rich in every construct (about 1 MB and 8 MB of stored JSON):
 *
 * - markdownToBody (the update_bit write-back path: every anchor kept) against a bare markdown-it parse of
 *   the same text with the same dialect (bar: at most 1.5×);
 * - bodyToMarkdown against JSON.stringify of the same tree (bar: at most 4×).
 *
 * Both ratios are measured in the same run, each time the best of several rounds: the converter is pure CPU
 * work, so the fastest round is the one least disturbed by other load on the machine.
 *
 *   npx tsx bench/convert.ts         prints a table, writes bench/results/convert.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import MarkdownIt from 'markdown-it';
import { bodyByteLength, bodyToMarkdown, markdownToBody, type ElementEntry, type SlateBody } from '../src/content/index.js';

const CONNECTIONS = 20;

function uuid(n: number, salt: number): string {
  const hex = (n * 7919 + salt).toString(16).padStart(12, '0').slice(-12);
  return `${(salt % 0xffffffff).toString(16).padStart(8, '0')}-0000-4000-8000-${hex}`;
}

/** One section of prose and elements; `i` makes its keys unique. */
function section(i: number): { markdown: string; elements: ElementEntry[] } {
  const k = (name: string) => `s${i}_${name}`;
  const markdown = `## Step ${i}: prepare the *workspace*

Check the **pressure gauge** before you _start_, and ~~never~~ skip the \`safety-check --all\` command.
Read [the manual](https://example.com/manual/${i} "Manual") and compare with ![gauge](https://example.com/img/${i}.png).
Cite [[ref:${uuid(i, 0x1234)}|Handbook §${i}]] and use [credential: deploy-key](credential:deploy-key "Push releases").
Open [the dashboard](https://example.com/dash/${i} "waymark-node:${k('li')}") when asked. Escapes: 5 * 3 = 15, a_b, [brackets], <tags>, & more.

- first item with **bold** text
- [x] a finished task
- second item
  1. nested one
  2. nested two

> A quote with a [link](https://example.com/q/${i}) and \`code\`.
>
> - quoted list

| Tool | Setting | Note |
| :-- | :-: | --: |
| Wrench | 12 *Nm* | check twice |
| Gauge | 3 bar | \`calibrate\` |

\`\`\`bash
#!/bin/sh
echo "step ${i}"
for f in *.log; do gzip "$f"; done
\`\`\`

[text-area: Notes for step ${i}](waymark-node:${k('ta')}) (required)

[check-list: Before you start](waymark-node:${k('cl')})
- [ ] [Wear gloves](waymark-node:${k('c1')}) *(required)*
- [x] [Open the valve](waymark-node:${k('c2')})

[dropdown: Pick a site](waymark-node:${k('dd')})
- [North](waymark-node:${k('d1')})
- [South](waymark-node:${k('d2')})

[radio-button: Severity](waymark-node:${k('rb')})
- (x) [Low](waymark-node:${k('r1')})
- ( ) [High](waymark-node:${k('r2')})

[date-picker: When](waymark-node:${k('dp')})

[searchable-field: Part number](waymark-node:${k('sf')})

[iframe](waymark-node:${k('if')})

[link-block](waymark-node:${k('lb')})

[video-external](waymark-node:${k('ve')})
`;
  const elements: ElementEntry[] = [
    { key: k('li'), type: 'link-inline' },
    { key: k('ta'), type: 'text-area', props: { required: true, maxLength: 500 } },
    { key: k('cl'), type: 'check-list', items: [{ key: k('c1'), required: true }, { key: k('c2') }] },
    { key: k('dd'), type: 'dropdown', items: [{ key: k('d1'), value: 'n' }, { key: k('d2'), value: 's' }] },
    { key: k('rb'), type: 'radio-button', items: [{ key: k('r1') }, { key: k('r2') }] },
    { key: k('dp'), type: 'date-picker', props: { picker_type: 'date' } },
    { key: k('sf'), type: 'searchable-field', props: { data: ['A-1', 'A-2', { value: 'B-7', label: 'Bolt' }] } },
    { key: k('if'), type: 'iframe', props: { url: `https://example.com/embed/${i}`, height: '300' } },
    { key: k('lb'), type: 'link-block', props: { url: `https://example.com/card/${i}` } },
    { key: k('ve'), type: 'video-external', props: { url: `https://example.com/video/${i}.mp4` } },
  ];
  return { markdown, elements };
}

/** A stored body of about `targetBytes` of JSON, built section by section as add_bit would build each. */
export function generateBody(targetBytes: number): SlateBody {
  const children: SlateBody['children'] = [];
  const connectionLines = Array.from({ length: CONNECTIONS }, (_, c) => `[Next ${c}](bit-connection:${uuid(c, 0xbeef)}?preview=0)`).join('\n\n');
  children.push(...markdownToBody(connectionLines).body.children);
  children.forEach((node, c) => {
    if (node.type === 'bit-connection') node.id = uuid(c, 0xc0ffee);
  });
  let bytes = bodyByteLength({ children });
  const sample = markdownToBody(section(0).markdown, { elements: section(0).elements }).body;
  const perSection = bodyByteLength(sample);
  for (let i = 1; bytes + perSection < targetBytes; i++) {
    const { markdown, elements } = section(i);
    children.push(...markdownToBody(markdown, { elements }).body.children);
    bytes += perSection;
  }
  return { children };
}

function best(xs: number[]): number {
  return Math.min(...xs);
}

/**
 * A full collection before each measurement, so no function pays for the garbage of the one timed before
 * it (each still pays for its own). The flag is set at run time so `npx tsx bench/convert.ts` just works.
 */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

function time(fn: () => unknown): number {
  collect();
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export interface ConvertRun {
  label: string;
  jsonBytes: number;
  markdownBytes: number;
  markdownToBodyMs: number;
  markdownItParseMs: number;
  parseRatio: number;
  bodyToMarkdownMs: number;
  jsonStringifyMs: number;
  renderRatio: number;
}

export function run(sizes: Array<[string, number]> = [['1 MB', 1 << 20], ['8 MB', 8 * (1 << 20) - 64 * 1024]], rounds = 9): ConvertRun[] {
  const bare = new MarkdownIt('commonmark', { html: false }).enable(['table', 'strikethrough']);
  const out: ConvertRun[] = [];
  for (const [label, target] of sizes) {
    const body = generateBody(target);
    const markdown = bodyToMarkdown(body);
    const parse: number[] = [];
    const bareParse: number[] = [];
    const render: number[] = [];
    const stringify: number[] = [];
    for (let r = 0; r < rounds + 1; r++) {
      const p = time(() => markdownToBody(markdown, { previous: body }));
      const b = time(() => bare.parse(markdown, {}));
      const m = time(() => bodyToMarkdown(body));
      const j = time(() => JSON.stringify(body));
      // The first round warms the JIT.
      if (r === 0) continue;
      parse.push(p);
      bareParse.push(b);
      render.push(m);
      stringify.push(j);
    }
    const row: ConvertRun = {
      label,
      jsonBytes: bodyByteLength(body),
      markdownBytes: Buffer.byteLength(markdown),
      markdownToBodyMs: best(parse),
      markdownItParseMs: best(bareParse),
      parseRatio: best(parse) / best(bareParse),
      bodyToMarkdownMs: best(render),
      jsonStringifyMs: best(stringify),
      renderRatio: best(render) / best(stringify),
    };
    out.push(row);
  }
  return out;
}

function main(): void {
  const results = run();
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}convert.json`, JSON.stringify(results, null, 2));
  const f = (n: number) => n.toFixed(1);
  console.log('body   json bytes  md bytes   markdownToBody  markdown-it  ratio(≤1.5)  bodyToMarkdown  JSON.stringify  ratio(≤4)');
  for (const r of results) {
    console.log(
      `${r.label.padEnd(7)}${String(r.jsonBytes).padEnd(12)}${String(r.markdownBytes).padEnd(11)}${`${f(r.markdownToBodyMs)} ms`.padEnd(16)}${`${f(r.markdownItParseMs)} ms`.padEnd(13)}${r.parseRatio.toFixed(2).padEnd(13)}${`${f(r.bodyToMarkdownMs)} ms`.padEnd(16)}${`${f(r.jsonStringifyMs)} ms`.padEnd(16)}${r.renderRatio.toFixed(2)}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
