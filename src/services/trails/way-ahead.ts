/**
 * The likely way ahead of a trail from its current step (issue 28, "Progress on the step"): the bits the trail
 * would enter next, walked with the connection rule advance_trail follows (conditions.ts). The current step's
 * connections are evaluated with its answers as they stand (the form's unsaved ones included); a later bit's
 * answers are not given yet, so its way is the one the rule opens with no answer given (an unconditioned
 * connection, or an unchecked item's; the first connection when every one waits for an answer), and the walk says
 * it is not decided. Pure: the step form runs it.
 */
import type { Condition } from '../bits/shapes.js';
import { nextMove, openConnections } from './conditions.js';

/** A bit ahead as the walk reads it: its title and outgoing connections in order, each with its condition. */
export interface BitAhead {
  bit_id: string;
  bit_title: string;
  connections: Array<{ connection_id: string; target_bit_id: string; condition: Condition | null }>;
}

export interface WayAhead {
  /** The bits the trail would enter after the current step, in order; empty: leaving it completes the trail. */
  steps: Array<{ bit_id: string; bit_title: string }>;
  /** False when a choice, a condition on answers not yet given, a loop or a bit out of sight makes it a guess. */
  certain: boolean;
}

/** The longest way walked: a flow longer than this is told as "about" so many. */
export const WAY_AHEAD_MAX = 50;

const NO_ANSWERS = new Map<string, { value: unknown }>();

/**
 * `here`: the current step's bit, its connections and its answers as they stand (the form's unsaved ones included);
 * `chosen`: the connection the person picked among several open ones; `bits`: the bits reachable from it. The way
 * from the current step is certain only when no condition of it waits on an element not answered yet.
 */
export function wayAhead(
  here: {
    bit_id: string;
    connections: ReadonlyArray<{ connection_id: string; target_bit_id: string; target_bit_title: string; condition: Condition | null }>;
    answers: ReadonlyMap<string, { value: unknown }>;
  },
  chosen: string | undefined,
  bits: readonly BitAhead[],
): WayAhead {
  const byId = new Map(bits.map((b) => [b.bit_id, b]));
  const steps: WayAhead['steps'] = [];
  const open = openConnections(here.connections, here.answers);
  let certain = !here.connections.some((c) => c.condition !== null && !here.answers.has(c.condition.element_id));
  const first = nextMove(open);
  if (first.kind === 'complete') return { steps, certain };
  let next: string;
  if (first.kind === 'follow') next = first.connection.target_bit_id;
  else {
    const picked = first.connections.find((c) => c.connection_id === chosen);
    certain &&= picked !== undefined;
    next = (picked ?? first.connections[0]!).target_bit_id;
  }
  const seen = new Set([here.bit_id]);
  const titles = new Map(open.map((c) => [c.target_bit_id, c.target_bit_title]));
  for (;;) {
    if (seen.has(next) || steps.length >= WAY_AHEAD_MAX) return { steps, certain: false };
    seen.add(next);
    const bit = byId.get(next);
    steps.push({ bit_id: next, bit_title: bit?.bit_title ?? titles.get(next) ?? next });
    if (!bit) return { steps, certain: false };
    const move = nextMove(openConnections(bit.connections, NO_ANSWERS));
    // No answer of this bit can change its way only when none of its connections has a condition.
    if (bit.connections.some((c) => c.condition !== null) || move.kind === 'choose') certain = false;
    if (move.kind === 'follow') next = move.connection.target_bit_id;
    else if (move.kind === 'choose') next = move.connections[0]!.target_bit_id;
    // Every connection waits for an answer: the likely one is the first (the walk is not certain already).
    else if (bit.connections.length > 0) next = bit.connections[0]!.target_bit_id;
    else return { steps, certain };
  }
}

/** "Step 3 · 2 done · about 3 more": where the trail stands, in words. */
export function progressWords(seq: number, done: number, way: WayAhead): string {
  const more = way.steps.length;
  const ahead = more === 0 ? (way.certain ? 'the last step' : 'maybe the last step') : `${way.certain ? '' : 'about '}${more} more`;
  return `Step ${seq} · ${done} done · ${ahead}`;
}
