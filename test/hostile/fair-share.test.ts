/**
 * Issue 24, "a tenant gets a fair share": request rates per token and per account, per address on the doors that
 * take no token, and concurrent conversions per token and account, against a real `waymark serve` with small
 * quotas (WAYMARK_QUOTA_*). A refusal is 429 with Retry-After and the IETF RateLimit fields, or, for a tool call
 * over MCP, the tool's envelope with TOO_MANY_REQUESTS and the wait; and one account at its limit leaves another
 * account's calls within 1.5× of their idle latency.
 */
import { request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../engines.js';
import { callTool, MCP_HEADERS, ok, rawRequest, startHostileServer, type HostileServer } from './harness.js';

const QUOTAS = {
  WAYMARK_QUOTA_REQUESTS_PER_TOKEN: '20',
  WAYMARK_QUOTA_REQUESTS_PER_ACCOUNT: '30',
  WAYMARK_QUOTA_WINDOW_SECONDS: '60',
  WAYMARK_QUOTA_WAITING_PER_ACCOUNT: '1',
  WAYMARK_QUOTA_ANONYMOUS_PER_ADDRESS: '12',
  WAYMARK_QUOTA_REGISTRATIONS_PER_ADDRESS: '3',
};

/** Clients calling list_bits back to back until told to stop; answers how many calls they made and how many were refused for the rate. */
const FLOOD = `
const { parentPort, workerData } = require('node:worker_threads');
const { request, Agent } = require('node:http');
const agent = new Agent({ keepAlive: true });
let stop = false;
let refusals = 0;
let calls = 0;
parentPort.once('message', () => { stop = true; });
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_bits', arguments: {} } });
const call = () => new Promise((resolve, reject) => {
  const req = request(workerData.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer ' + workerData.token, 'mcp-protocol-version': '2025-06-18' } }, (res) => {
    let text = '';
    res.on('data', (c) => (text += c));
    res.on('end', () => resolve(text));
  });
  req.on('error', reject);
  req.end(body);
});
const client = async () => { while (!stop) { calls++; if ((await call()).includes('TOO_MANY_REQUESTS')) refusals++; } };
Promise.all(Array.from({ length: workerData.clients }, client)).then(() => parentPort.postMessage({ refusals, calls }));
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe.each(ENGINES)('fair share on %s', (engine) => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer(engine, QUOTAS);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A fresh account with one Admin token: every test counts from zero. */
  const newAccount = async (name: string) => server.newToken({ accountId: await server.services.auth.createAccount(name) });

  it('a token past its rate: the tool envelope with TOO_MANY_REQUESTS and the wait, 429 for REST and other MCP messages, RateLimit fields on every answer', async () => {
    const token = await newAccount('rate');
    for (let i = 0; i < 20; i++) {
      const answer = await callTool(server, 'describe_platform', {}, token);
      expect(answer.envelope?.success).toBe(true);
    }
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-06-18' };
    const call = await rawRequest(server.mcpUrl, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_bits', arguments: {} } }) });
    expect(call.status).toBe(200);
    expect(call.headers['ratelimit-policy']).toBe('"token";q=20;w=60');
    expect(call.headers['ratelimit']).toMatch(/^"token";r=0;t=\d+$/);
    expect(Number(call.headers['retry-after'])).toBeGreaterThan(0);
    const message = JSON.parse(call.text) as { id: number; result: { isError: boolean; structuredContent: { success: boolean; error: { code: string; status: number; details: Record<string, unknown> } } } };
    expect(message.id).toBe(7);
    expect(message.result.isError).toBe(true);
    expect(message.result.structuredContent.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, details: { limit: 'requests_per_token', max: 20, window_seconds: 60 } });
    expect(message.result.structuredContent.error.details.retry_after_seconds).toBe(Number(call.headers['retry-after']));

    const list = await rawRequest(server.mcpUrl, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' }) });
    expect(list.status).toBe(429);
    expect(JSON.parse(list.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { limit: 'requests_per_token' } } });

    const rest = await rawRequest(new URL('/api/v1/flows', server.base), { method: 'GET', headers: { authorization: `Bearer ${token}` } });
    expect(rest.status).toBe(429);
    expect(rest.headers['retry-after']).toBeDefined();
    expect(JSON.parse(rest.text)).toMatchObject({ success: false, error: { code: 'TOO_MANY_REQUESTS', details: { limit: 'requests_per_token' } } });
  });

  it('an account past its rate refuses each of its tokens, and no other account', async () => {
    const first = await newAccount('account-rate');
    const accountId = (await ok(server, 'describe_platform', {}, first)).account as { account_id: string };
    const second = await server.newToken({ accountId: accountId.account_id });
    // 1 above, then 19 + 10 = 30 requests: the account's quota.
    for (let i = 0; i < 19; i++) expect((await callTool(server, 'describe_platform', {}, first)).envelope?.success).toBe(true);
    for (let i = 0; i < 10; i++) expect((await callTool(server, 'describe_platform', {}, second)).envelope?.success).toBe(true);
    const refused = await callTool(server, 'describe_platform', {}, second);
    expect(refused.envelope?.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { limit: 'requests_per_account', max: 30 } });
    const other = await newAccount('other');
    expect((await callTool(server, 'describe_platform', {}, other)).envelope?.success).toBe(true);
  });

  it('doors without a token are limited per address, registration per hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await rawRequest(new URL('/oauth/authorize?client_id=x', server.base), { method: 'GET' })).status);
    expect(statuses.slice(0, 12).every((s) => s !== 429)).toBe(true);
    const limited = await rawRequest(new URL('/app/signin?token=x', server.base), { method: 'GET' });
    expect(limited.status).toBe(429);
    expect(limited.headers['ratelimit']).toMatch(/^"address";r=0;t=\d+$/);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(JSON.parse(limited.text)).toMatchObject({ error: 'temporarily_unavailable', limit: 'requests_per_address' });
    // Registrations from another address: three an hour here.
    const metadata = JSON.stringify({ client_name: 'Counted', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' });
    const register = () =>
      new Promise<{ status: number; policy: string | undefined }>((resolve, reject) => {
        const req = request(new URL('/oauth/register', server.base), { method: 'POST', localAddress: '127.0.0.9', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(metadata)) } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, policy: res.headers['ratelimit-policy'] as string | undefined }));
        });
        req.on('error', reject);
        req.end(metadata);
      });
    const registered = [];
    for (let i = 0; i < 4; i++) registered.push(await register());
    expect(registered.map((r) => r.status)).toEqual([201, 201, 201, 429]);
    expect(registered[3]?.policy).toBe('"registration";q=3;w=3600');
  });

  it('conversions: a token runs one and one waits, the rest are refused at once; another account converts meanwhile', async () => {
    const token = await newAccount('converting');
    const other = await newAccount('bystander');
    // Bodies over LIMITS.inlineConvertChars, so each conversion takes a conversion thread.
    const body = 'A paragraph of an onboarding step, with enough words to take a thread.\n\n'.repeat(20_000);
    const add = (t: string, i: number) => callTool(server, 'add_bit', { bit_title: `Large ${i}`, bit_body: body }, t);
    const [answers, bystander] = await Promise.all([Promise.all([0, 1, 2, 3].map((i) => add(token, i))), (async () => {
      await new Promise((r) => setTimeout(r, 50));
      return add(other, 9);
    })()]);
    const outcomes = answers.map((a) => (a.envelope?.success ? 'ok' : `${a.envelope?.error?.code}:${String(a.envelope?.error?.details?.limit)}`));
    expect(outcomes.sort()).toEqual(['TOO_MANY_REQUESTS:concurrent_conversions_per_token', 'TOO_MANY_REQUESTS:concurrent_conversions_per_token', 'ok', 'ok']);
    const refused = answers.find((a) => !a.envelope?.success);
    expect(refused?.envelope?.error?.details?.retry_after_seconds).toBe(1);
    expect(bystander.envelope?.success).toBe(true);
  });

  it('one account at its limit leaves another account’s calls within 1.5× of their idle latency', async () => {
    // A server of its own, whose accounts may make 200 calls a minute (tokens 20 as above), so that the calm account
    // can be timed often enough for a steady median: 25 calls idle before the flood, 25 under it, 25 idle after it
    // (idle on both sides, so that a machine that slows or speeds up meanwhile moves both figures alike).
    const own = await startHostileServer(engine, { ...QUOTAS, WAYMARK_QUOTA_REQUESTS_PER_ACCOUNT: '200' });
    try {
      const hot = await own.newToken({ accountId: await own.services.auth.createAccount('hot') });
      const calmAccount = await own.services.auth.createAccount('calm');
      const calmTokens = await Promise.all(Array.from({ length: 5 }, () => own.newToken({ accountId: calmAccount })));
      let used = 0;
      /** Each calm token makes at most 16 calls, within its quota of 20. */
      const calm = () => calmTokens[Math.floor(used++ / 16)] as string;
      const small = String((await ok(own, 'add_bit', { bit_title: 'Small', bit_body: 'A short step.' }, calm())).bit_id);
      const timed = async () => {
        const token = calm();
        const started = performance.now();
        const answer = await callTool(own, 'get_bit', { bit_id: small }, token);
        expect(answer.envelope?.success).toBe(true);
        return performance.now() - started;
      };
      // Three untimed calls first, so that "idle" is not the first calls' warm-up.
      for (let i = 0; i < 3; i++) await timed();
      const idle: number[] = [];
      for (let i = 0; i < 25; i++) idle.push(await timed());
      // The hot account uses up its quota, then sixteen clients keep calling it as soon as answered: every call refused.
      for (let i = 0; i < 20; i++) expect((await callTool(own, 'list_bits', {}, hot)).envelope?.success).toBe(true);
      // The flood runs on a thread of its own, so that the calm account's timings are the server's, not this
      // thread's handling of the flood's answers.
      const flood = new Worker(FLOOD, { eval: true, workerData: { url: own.mcpUrl.href, token: hot, clients: 16 } });
      const floodDone = new Promise<{ refusals: number; calls: number }>((resolve, reject) => {
        flood.once('message', resolve);
        flood.once('error', reject);
      });
      await new Promise((r) => setTimeout(r, 300));
      const loaded: number[] = [];
      try {
        for (let i = 0; i < 25; i++) loaded.push(await timed());
      } finally {
        flood.postMessage('stop');
      }
      const { refusals, calls } = await floodDone;
      await flood.terminate();
      for (let i = 0; i < 25; i++) idle.push(await timed());
      if (process.env.WAYMARK_PRINT_FAIR) console.log(engine, 'idle', median(idle).toFixed(2), 'loaded', median(loaded).toFixed(2), 'refusals', refusals);
      // Every call of the flood was refused, each client's several times over.
      expect(refusals).toBe(calls);
      expect(refusals).toBeGreaterThan(32);
      expect(median(loaded)).toBeLessThan(1.5 * median(idle));
    } finally {
      await own.close();
    }
  }, 120_000);
});
