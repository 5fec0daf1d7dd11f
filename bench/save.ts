/**
 * A person's Save on the step page, as the web app makes it over REST (issue 25), measured in the server's CPU:
 *
 * - before: the two calls the app made until now, and which stay for API users: POST /trails/:id/answers
 *   (submit_step_data), then GET /trails/:id/step (the step payload read again);
 * - after: the one call it makes now, POST /trails/:id/step/answers (save_step), which answers the payload from
 *   the read its own write made.
 *
 * One `waymark serve` on SQLite, one client saving one answer after another on a step of a bit of about 8 KB
 * (every construct and element type: bench/bodies.ts sizedBody). Rounds alternate between the two paths, each
 * on a fresh trail (the answers a step keeps are read back on every save, so neither path meets a longer list),
 * and the ratio is the median of the paired rounds' server CPU per Save.
 *
 *   npx tsx bench/save.ts [--quick]     writes bench/results/save.json
 */
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { initOwner, openBenchStore, seedBodyDependencies, sizedBody, slateInput } from './bodies.js';
import { processCpuMs, startListening, stopChild } from './processes.js';
import { isEntry, median, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

const BIN = fileURLToPath(new URL('../bin/waymark.js', import.meta.url));

interface Round {
  /** Server CPU per Save, ms. */
  serverMs: number;
  /** Wall time per Save as the client waits for it, ms. */
  wallMs: number;
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const quick = options.quick === true;
  const rounds = quick ? 6 : 12;
  const savesPerRound = quick ? 30 : 60;
  const bs = await openBenchStore('sqlite');
  let child: ChildProcess | undefined;
  try {
    const owner = await initOwner(bs.store);
    const body = sizedBody(8 * 1024, 0);
    await seedBodyDependencies(bs.store, owner, body);
    const bit = await owner.services.bits.add(owner.actor, { bit_title: 'An 8 KB step', bit_body: slateInput(body), content_format: 'slate' });
    const flow = await owner.services.flows.create(owner.actor, { flow_title: 'Save bench', start_bit_id: bit.bit_id });
    // One client saving back to back makes more requests in a minute than a token's rate allows a person.
    const server = await startListening([BIN, 'serve', '--port', '0'], bs.env);
    child = server.child;
    const pid = child.pid as number;
    const api = new URL('/api/v1', server.url).href;
    const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', accept: 'application/json' };
    const call = async (method: 'GET' | 'POST', path: string, payload?: unknown) => {
      const res = await fetch(`${api}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
      const json = (await res.json()) as { success: boolean; data?: unknown; error?: unknown };
      if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error).slice(0, 300)}`);
      return json.data;
    };
    const newTrail = async () => ((await call('POST', '/trails', { flow_id: flow.flow_id })) as { trail_id: string }).trail_id;
    // The step's first required text-area: the answer a person types and saves.
    const first = (await call('GET', `/trails/${await newTrail()}/step`)) as { step: { elements: Array<{ element_id: string; element_type: string | null }> } };
    const notes = first.step.elements.find((e) => e.element_type === 'TextArea');
    if (!notes) throw new Error('the bench body has no text-area');
    const data = (i: number) => ({ data: [{ element_id: notes.element_id, element_type: 'TextArea', value: { value: `Checked by hand, round ${i}.` } }] });

    const paths = {
      before: async (trail: string, i: number) => {
        await call('POST', `/trails/${trail}/answers`, data(i));
        return call('GET', `/trails/${trail}/step`);
      },
      after: (trail: string, i: number) => call('POST', `/trails/${trail}/step/answers`, data(i)),
    };
    const measure = async (path: keyof typeof paths): Promise<Round> => {
      const trail = await newTrail();
      const cpu = processCpuMs(pid);
      const started = performance.now();
      for (let i = 0; i < savesPerRound; i++) await paths[path](trail, i);
      return { serverMs: (processCpuMs(pid) - cpu) / savesPerRound, wallMs: (performance.now() - started) / savesPerRound };
    };
    // Both paths answer the step form as it stands after the Save: the one call replaces the two, it does not answer less.
    type Payload = { step: { step_id: string; answers: Array<{ value: unknown }> } };
    const check = await newTrail();
    const two = (await paths.before(check, 1)) as Payload;
    const one = (await paths.after(check, 2)) as Payload;
    if (two.step.step_id !== one.step.step_id || one.step.answers[0]?.value !== 'Checked by hand, round 2.') throw new Error('the one call does not answer the saved step');

    await measure('before');
    await measure('after');
    const before: Round[] = [];
    const after: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        before.push(await measure('before'));
        after.push(await measure('after'));
      } else {
        after.push(await measure('after'));
        before.push(await measure('before'));
      }
    }
    const ratio = median(after.map((a, i) => a.serverMs / (before[i] as Round).serverMs));
    const wallRatio = median(after.map((a, i) => a.wallMs / (before[i] as Round).wallMs));
    const row = (name: string, calls: number, list: Round[]) => ({
      path: name,
      'HTTP calls per Save': calls,
      'server CPU ms per Save': round(median(list.map((x) => x.serverMs))),
      'wall ms per Save': round(median(list.map((x) => x.wallMs))),
    });
    return {
      name: 'save',
      rows: [row('before: POST /answers + GET /step', 2, before), row('after: POST /step/answers (save_step)', 1, after), { path: 'after / before', 'HTTP calls per Save': 0.5, 'server CPU ms per Save': round(ratio), 'wall ms per Save': round(wallRatio) }],
      bars: [{ name: 'server CPU per Save, one call vs two', value: round(ratio), bar: '≤ 0.7×', pass: ratio <= 0.7 }],
      notes: [
        `Median of ${rounds} paired rounds of ${savesPerRound} Saves each, one client, waymark serve on SQLite; a step of an 8 KB bit (${body.children.length} blocks), one text-area answered per Save.`,
        'Server CPU: the server process, every thread (/proc, 10 ms ticks over a round). The two-call path stays for API users; the app uses the one call.',
      ],
    };
  } finally {
    if (child) await stopChild(child);
    await bs.dispose();
  }
}

if (isEntry(import.meta.url)) {
  runAsScript(async (options) => {
    const result = await run(options);
    writeResult(result);
    return result;
  });
}
