import { describe, expect, it } from 'vitest';
import { conditionHolds, nextMove, openConnections } from './conditions.js';
import { progressWords, wayAhead, WAY_AHEAD_MAX, type BitAhead } from './way-ahead.js';

const to = (id: string, target: string, condition: BitAhead['connections'][number]['condition'] = null) => ({ connection_id: id, target_bit_id: target, condition });
const bit = (id: string, ...connections: BitAhead['connections']): BitAhead => ({ bit_id: id, bit_title: id.toUpperCase(), connections });
const open = (...targets: string[]) => targets.map((t, i) => ({ connection_id: `c${i}`, target_bit_id: t, target_bit_title: t.toUpperCase(), condition: null }));
const here = (connections: ReturnType<typeof open>, answers = new Map<string, { value: unknown }>()) => ({ bit_id: 's', connections, answers });

describe('conditions: the rule advance_trail follows', () => {
  const answers = new Map<string, { value: unknown }>([
    ['plan', { value: 'premium' }],
    ['item', { value: true }],
  ]);
  it('an option condition holds when the latest answer is one of its options; an item when its state matches', () => {
    expect(conditionHolds(null, answers)).toBe(true);
    expect(conditionHolds({ element_id: 'plan', option_ids: ['premium', 'gold'] }, answers)).toBe(true);
    expect(conditionHolds({ element_id: 'plan', option_ids: ['basic'] }, answers)).toBe(false);
    expect(conditionHolds({ element_id: 'item', checked: true }, answers)).toBe(true);
    expect(conditionHolds({ element_id: 'other', checked: false }, answers)).toBe(true);
    expect(conditionHolds({ element_id: 'other', checked: true }, answers)).toBe(false);
  });
  it('none open completes, one is followed, several wait for a choice', () => {
    const cs = [to('a', 'x', { element_id: 'plan', option_ids: ['basic'] }), to('b', 'y', { element_id: 'plan', option_ids: ['premium'] }), to('c', 'z')];
    expect(openConnections(cs, answers).map((c) => c.connection_id)).toEqual(['b', 'c']);
    expect(nextMove([])).toEqual({ kind: 'complete' });
    expect(nextMove([cs[2]])).toEqual({ kind: 'follow', connection: cs[2] });
    expect(nextMove(cs.slice(0, 2))).toEqual({ kind: 'choose', connections: cs.slice(0, 2) });
  });
});

describe('wayAhead', () => {
  it('nothing open: continuing completes the trail, for certain', () => {
    expect(wayAhead(here([]), undefined, [])).toEqual({ steps: [], certain: true });
    expect(progressWords(1, 0, wayAhead(here([]), undefined, []))).toBe('Step 1 · 0 done · the last step');
  });

  it('a straight line is walked to its end, certain', () => {
    const way = wayAhead(here(open('a')), undefined, [bit('a', to('1', 'b')), bit('b', to('2', 'c')), bit('c')]);
    expect(way).toEqual({ steps: [{ bit_id: 'a', bit_title: 'A' }, { bit_id: 'b', bit_title: 'B' }, { bit_id: 'c', bit_title: 'C' }], certain: true });
    expect(progressWords(3, 2, way)).toBe('Step 3 · 2 done · 3 more');
  });

  it('a later branch on answers not yet given: the default way, as "about"', () => {
    const bits = [
      bit('a', to('1', 'b', { element_id: 'plan', option_ids: ['premium'] }), to('2', 'c')),
      bit('b', to('3', 'd')),
      bit('c'),
      bit('d'),
    ];
    const way = wayAhead(here(open('a')), undefined, bits);
    // With no answer given on A, only its unconditioned connection is open: C, where the trail ends.
    expect(way).toEqual({ steps: [{ bit_id: 'a', bit_title: 'A' }, { bit_id: 'c', bit_title: 'C' }], certain: false });
    expect(progressWords(1, 0, way)).toBe('Step 1 · 0 done · about 2 more');
  });

  it('every connection of a later bit waits for an answer: the first one is the likely way', () => {
    const bits = [bit('a', to('1', 'b', { element_id: 'plan', option_ids: ['x'] }), to('2', 'c', { element_id: 'plan', option_ids: ['y'] })), bit('b'), bit('c')];
    expect(wayAhead(here(open('a')), undefined, bits)).toEqual({ steps: [{ bit_id: 'a', bit_title: 'A' }, { bit_id: 'b', bit_title: 'B' }], certain: false });
  });

  it('several open from the current step: the chosen one is followed, else the first and not certain', () => {
    const bits = [bit('a'), bit('b', to('1', 'c')), bit('c')];
    expect(wayAhead(here(open('a', 'b')), 'c1', bits)).toEqual({ steps: [{ bit_id: 'b', bit_title: 'B' }, { bit_id: 'c', bit_title: 'C' }], certain: true });
    expect(wayAhead(here(open('a', 'b')), undefined, bits)).toEqual({ steps: [{ bit_id: 'a', bit_title: 'A' }], certain: false });
    expect(progressWords(2, 1, wayAhead(here(open('a', 'b')), undefined, bits))).toBe('Step 2 · 1 done · about 1 more');
  });

  it('a condition of the current step on an element not answered yet: what the answers open now, as "about"', () => {
    const plan = { element_id: 'plan', option_ids: ['p'] };
    const connections = [{ connection_id: 'c0', target_bit_id: 'a', target_bit_title: 'A', condition: plan }];
    const bits = [bit('a')];
    expect(wayAhead({ bit_id: 's', connections, answers: new Map() }, undefined, bits)).toEqual({ steps: [], certain: false });
    expect(progressWords(1, 0, wayAhead({ bit_id: 's', connections, answers: new Map() }, undefined, bits))).toBe('Step 1 · 0 done · maybe the last step');
    expect(wayAhead({ bit_id: 's', connections, answers: new Map([['plan', { value: 'p' }]]) }, undefined, bits)).toEqual({ steps: [{ bit_id: 'a', bit_title: 'A' }], certain: true });
    expect(wayAhead({ bit_id: 's', connections, answers: new Map([['plan', { value: 'q' }]]) }, undefined, bits)).toEqual({ steps: [], certain: true });
  });

  it('a loop back stops the walk, not certain; a bit out of sight ends it with the title the connection gave', () => {
    expect(wayAhead(here(open('a')), undefined, [bit('a', to('1', 's'))])).toEqual({ steps: [{ bit_id: 'a', bit_title: 'A' }], certain: false });
    expect(wayAhead(here(open('gone')), undefined, [])).toEqual({ steps: [{ bit_id: 'gone', bit_title: 'GONE' }], certain: false });
    expect(progressWords(1, 0, { steps: [], certain: false })).toBe('Step 1 · 0 done · maybe the last step');
  });

  it('a very long line is cut at WAY_AHEAD_MAX and told as "about"', () => {
    const bits = Array.from({ length: WAY_AHEAD_MAX + 10 }, (_, i) => bit(`b${i}`, to(`c${i}`, `b${i + 1}`)));
    const way = wayAhead(here(open('b0')), undefined, bits);
    expect(way.steps).toHaveLength(WAY_AHEAD_MAX);
    expect(way.certain).toBe(false);
  });
});
