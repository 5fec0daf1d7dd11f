/**
 * The admin paths append their events too (issue 26), and `waymark audit verify` walks an account's chain: OK on
 * an intact one, even after many writes at once; an event edited or removed behind the server's back is named,
 * the first one first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import type { Actor } from '../services/actor.js';
import { hashToken } from '../services/auth/auth.service.js';
import { createServices, type Services } from '../services/index.js';

describe.each(ENGINES)('events of the command line, and waymark audit verify, on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  let accountId: string;
  let owner: Actor;
  const run = (...args: string[]) => waymark(ts.env, ...args);
  const events = () => ts.store.db.selectFrom('events').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();

  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
  });
  afterAll(async () => ts.close());

  it('records init, token create and revoke, sign-in links and session revoke as the operator', async () => {
    const init = await run('init');
    expect(init.code).toBe(0);
    owner = (await services.auth.authenticate(init.stdout.trim()))!;
    accountId = owner.accountId;
    const created = await run('token', 'create', '--account', accountId, '--permission', 'edit', '--capabilities', 'author,read', '--kind', 'person');
    const person = (await services.auth.authenticate(created.stdout.trim()))!;
    expect((await run('token', 'revoke', person.tokenId!)).code).toBe(0);
    expect((await run('token', 'revoke', person.tokenId!)).code).toBe(0);
    expect((await run('signin-link', 'create', '--principal', person.principalId)).code).toBe(0);
    expect((await run('session', 'revoke', '--principal', person.principalId)).stdout).toBe('0\n');
    const recorded = await events();
    expect(recorded.map((e) => [e.operation, e.resource_type, e.principal_kind, e.principal_id])).toEqual([
      ['init', 'token', 'operator', null],
      ['token_create', 'token', 'operator', null],
      // Revoking a revoked token changes nothing, and a revoke with no live session neither: no event.
      ['token_revoke', 'token', 'operator', null],
      ['signin_link_create', 'signin_link', 'operator', null],
    ]);
    expect(recorded[1].resource_id).toBe(person.tokenId);
    // Never a secret: neither a token nor its hash.
    for (const secret of [init.stdout.trim(), created.stdout.trim()]) {
      expect(JSON.stringify(recorded)).not.toContain(secret);
      expect(JSON.stringify(recorded)).not.toContain(hashToken(secret));
    }
    expect(recorded.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('keeps one unbroken chain when many writes of the account run at once', async () => {
    const before = (await events()).length;
    await Promise.all(Array.from({ length: 16 }, (_, i) => services.bits.add(owner, { bit_title: `Bit ${i}`, bit_body: 'A step.' })));
    const after = await events();
    expect(after.map((e) => Number(e.seq))).toEqual(Array.from({ length: before + 16 }, (_, i) => i + 1));
    const verified = await run('audit', 'verify', '--account', accountId);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toBe(`OK: ${after.length} events, head event ${after.length} ${after.at(-1)?.hash}\n`);
  });

  it('names an event edited behind the server\'s back, and one removed, the first one first', async () => {
    const all = await events();
    const edited = all[9];
    const removed = all[4];
    await ts.store.db.updateTable('events').set({ summary: JSON.stringify({ forged: true }) }).where('id', '=', edited.id).execute();
    const once = await run('audit', 'verify', '--account', accountId);
    expect(once.code).toBe(1);
    expect(once.stdout).toBe(`event 10 (${edited.id}) was edited: its fields no longer match its hash\n`);
    expect(once.stderr).toMatch(/^waymark: the event chain of account .* is broken: first at event 10 /);

    await ts.store.db.deleteFrom('events').where('id', '=', removed.id).execute();
    const twice = await run('audit', 'verify', '--account', accountId);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe(
      `event 5 is missing: the chain goes from event 4 to event 6 (${all[5].id})\n` + `event 10 (${edited.id}) was edited: its fields no longer match its hash\n`,
    );
    expect(twice.stderr).toMatch(/first at event 5 \(2 problem\(s\), 19 events read/);
  });

  it('a hash rewritten to hide an edit still breaks the link to the next event', async () => {
    const all = await events();
    const target = all[14];
    await ts.store.db.updateTable('events').set({ hash: 'f'.repeat(64) }).where('id', '=', target.id).execute();
    const report = await services.audit.verify(accountId);
    expect(report.problems.map((p) => [p.kind, p.seq])).toEqual([
      ['missing', 5],
      ['edited', 10],
      ['edited', Number(target.seq)],
      ['edited', Number(target.seq)],
    ]);
  });
});
