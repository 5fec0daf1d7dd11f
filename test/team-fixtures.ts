/**
 * A team's world for the mail, scheduler and live tests (issue 27), made through a real `waymark serve` with the
 * writes a team makes: an Admin sets people's emails (update_person) and makes groups (create_group,
 * add_group_members) over REST; an author makes a flow whose bits say who does each step and how long it should
 * take (add_bit's assignee and expected_duration) over MCP; people start trails with a due time, hand steps on
 * (transfer_step's `to`) and comment with @mentions. Every notice and every due time in these tests comes from those
 * writes, as it does for a team.
 *
 * One thing no door makes: a person's principal and token. An Admin issues them with `waymark token create` (the
 * CLI calls services.auth.createToken, as addPerson does here).
 */
import type { Services } from '../src/services/index.js';
import { RemoteClient } from './faults/client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export interface Person {
  id: string;
  name: string;
  email: string | null;
  token: string;
}

export interface StartedTrail {
  trailId: string;
  stepId: string;
}

/** A step of a flow: its bit's title, who does it and how long it should take (add_bit's fields). */
export interface StepSpec {
  title: string;
  body?: string;
  assignee?: string;
  expected_duration?: string;
  human_required?: boolean;
}

export interface RestError {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A REST call that was refused: its status and error, for tests that expect one. */
export class Refused extends Error {
  constructor(readonly error: RestError) {
    super(`${error.status} ${error.code}: ${error.message}`);
  }
}

/**
 * The team of one account on a served process: `origin` is the process's address (REST, and `${origin}/mcp`),
 * `admin` the token of the account's first principal (an Admin).
 */
export class Team {
  constructor(
    readonly services: Services,
    readonly accountId: string,
    readonly admin: { id: string; token: string },
    public origin: string,
  ) {}

  /** REST /api/v1 as the token's principal; answers `data`, or throws Refused with the error. */
  async api<T = Record<string, unknown>>(token: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, origin = this.origin): Promise<T> {
    const res = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { success: boolean; data?: T; error?: Omit<RestError, 'status'> };
    if (!json.success) throw new Refused({ status: res.status, ...(json.error as Omit<RestError, 'status'>) });
    return json.data as T;
  }

  /** A person of the account who may run trails; an Admin sets their email (update_person) unless it is null. */
  async addPerson(name: string, email: string | null): Promise<Person> {
    const issued = await this.services.auth.createToken({ accountId: this.accountId, permission: 'edit', capabilities: ['waymark.read', 'waymark.run'], kind: 'person', name });
    if (email !== null) await this.setEmail(issued.principalId, email);
    return { id: issued.principalId, name, email, token: issued.token };
  }

  async setEmail(principalId: string, email: string | null): Promise<void> {
    await this.api(this.admin.token, 'POST', `/people/${principalId}`, { email });
  }

  /** A group the Admin makes, with its members named by email or id; answers its id. */
  async makeGroup(name: string, members: string[]): Promise<string> {
    const { group_id } = await this.api<{ group_id: string }>(this.admin.token, 'POST', '/groups', { name });
    if (members.length > 0) await this.api(this.admin.token, 'POST', `/groups/${group_id}/members`, { people: members });
    return group_id;
  }

  /**
   * An approved, active flow of these steps in a line (each bit connected to the next), made by the Admin over
   * MCP; answers the flow's id.
   */
  async makeFlow(title: string, steps: StepSpec[], extra: Record<string, unknown> = {}): Promise<string> {
    const client = await RemoteClient.connect(`${this.origin}/mcp`, this.admin.token);
    const ok = async <T>(tool: string, args: Record<string, unknown>): Promise<T> => {
      const envelope = await client.call<T>(tool, args);
      if (!envelope.success) throw new Error(`${tool}: ${JSON.stringify(envelope.error)}`);
      return envelope.data as T;
    };
    try {
      const ids: string[] = [];
      for (const step of steps) {
        const { title: bit_title, body, ...fields } = step;
        ids.push((await ok<{ bit_id: string }>('add_bit', { bit_title, bit_body: body ?? 'Do this, then say so.', ...fields })).bit_id);
      }
      for (let k = 1; k < ids.length; k++) await ok('connect_bits', { source_bit_id: ids[k - 1], target_bit_id: ids[k] });
      const { flow_id } = await ok<{ flow_id: string }>('create_flow', { flow_title: title, start_bit_id: ids[0], ...extra });
      await ok('review_flow', { flow_id, review_status: 'approved' });
      await ok('update_flow', { flow_id, is_active: true });
      return flow_id;
    } finally {
      await client.close();
    }
  }

  /** Starts a trail over REST as the token's principal; answers it and its current step. */
  async startTrail(token: string, flowId: string, options: { title?: string; due?: string; context?: Record<string, unknown>; origin?: string } = {}): Promise<StartedTrail> {
    const body = { flow_id: flowId, ...(options.title ? { trail_title: options.title } : {}), ...(options.due ? { due_date_time_utc: options.due } : {}), ...(options.context ? { trail_context: options.context } : {}) };
    const data = await this.api<{ trail_id: string; current_step: { step_id: string } | null }>(token, 'POST', '/trails', body, options.origin);
    if (!data.current_step) throw new Error(`the trail ${data.trail_id} started with no current step`);
    return { trailId: data.trail_id, stepId: data.current_step.step_id };
  }

  /** transfer_step over REST: hands the trail's current step to `to` ("person:<id|email>", "group:<id|name>"). */
  async handTo(token: string, trailId: string, to: string, reason = 'Over to you.'): Promise<void> {
    await this.api(token, 'POST', `/trails/${trailId}/transfer`, { reason, to });
  }

  /** comment_on_step over REST on the current step; answers whom its mentions named. */
  async comment(token: string, trailId: string, text: string): Promise<{ mentions: unknown[] }> {
    return this.api<{ mentions: unknown[] }>(token, 'POST', `/trails/${trailId}/comments`, { text });
  }
}

/** The team of a served store's first account (test/serve.ts startServedStore). */
export function teamOf(served: { services: Services; first: { accountId: string; token?: { token: string; principalId: string } | null }; origin: string }): Team {
  const token = served.first.token;
  if (!token) throw new Error('the store was initialised without a token');
  return new Team(served.services, served.first.accountId, { id: token.principalId, token: token.token }, served.origin);
}

/** An ISO date-time `ms` from now. */
export function fromNow(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
