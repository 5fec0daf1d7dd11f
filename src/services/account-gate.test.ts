import { describe, expect, it } from 'vitest';
import { WaymarkError } from '../errors.js';
import { AccountGate } from './account-gate.js';

/** A piece of work that runs until the test lets it end. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { work: () => done, release };
}

/** Two turns of the event loop: the gate hands a slot over on the next one. */
const flush = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

describe('AccountGate', () => {
  it('runs at most `running` calls of one account at once, lets `waiting` more wait in order, refuses the rest', async () => {
    const gate = new AccountGate('searches', 2, 2);
    const started: number[] = [];
    const works = Array.from({ length: 4 }, () => held());
    const calls = works.map((w, i) => gate.run('a', () => (started.push(i), w.work())));
    await flush();
    expect(started).toEqual([0, 1]);
    const refused = await gate.run('a', async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WaymarkError);
    expect((refused as WaymarkError).code).toBe('TOO_MANY_REQUESTS');
    expect((refused as WaymarkError).details).toEqual({ limit: 'concurrent_searches_per_account', max_running: 2, max_waiting: 2, retry_after_seconds: 1 });
    // Another account is not held up by the first one's line.
    expect(await gate.run('b', async () => 'other account')).toBe('other account');
    works[1]?.release();
    await flush();
    expect(started).toEqual([0, 1, 2]);
    works[0]?.release();
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);
    works[2]?.release();
    works[3]?.release();
    await Promise.all(calls);
    // Every slot given back: two run and two wait again, the fifth is refused.
    const again = Array.from({ length: 4 }, () => held());
    const next = again.map((w) => gate.run('a', w.work));
    await flush();
    expect(await gate.run('a', async () => 'fifth').catch((e: unknown) => (e as WaymarkError).code)).toBe('TOO_MANY_REQUESTS');
    again.forEach((w) => w.release());
    await Promise.all(next);
  });

  it('gives the slot back when the work fails', async () => {
    const gate = new AccountGate('searches', 1, 0);
    await expect(gate.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run('a', async () => 'ran')).toBe('ran');
  });
});
