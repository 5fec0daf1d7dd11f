/**
 * The webhook checks of the process test and the fault run (webhook-receiver.ts) can fail: each violation they
 * look for, made up here, is found, and a redelivery after a kill (allowed: at least once) is not one.
 */
import { describe, expect, it } from 'vitest';
import { checkArrivals, type Arrival } from './webhook-receiver.js';

const events = [1, 2, 3, 4].map((seq) => ({ id: `e${seq}`, seq }));
const arrival = (seq: number, status = 204, extra: Partial<Arrival> = {}): Arrival => ({ endpoint: 'x', id: `e${seq}`, seq, type: 'bit.changed', status, verified: true, inFlight: 1, at: 0, ...extra });

describe('checkArrivals', () => {
  it('passes each event accepted in order, retries of the head event and a resend after a kill', () => {
    const found = checkArrivals([arrival(1, 500), arrival(1), arrival(2), arrival(3), arrival(3), arrival(4, 500), arrival(4)], events);
    expect(found).toMatchObject({ expected: 4, requests: 7, accepted: 5, accepted_twice: 1, missing: [], unknown: [], out_of_order: [], unverified: 0, max_in_flight: 1 });
  });

  it('finds an event never accepted, one that is no expected event, and a request that did not verify', () => {
    const found = checkArrivals([arrival(1), arrival(2, 500), arrival(9), arrival(3, 204, { verified: false })], events.slice(0, 2));
    expect(found.missing).toEqual(['event seq 2 (e2) was never accepted']);
    expect(found.unknown).toHaveLength(1);
    expect(found.unverified).toBe(1);
  });

  it('finds an event sent before an earlier one was accepted, an event first sent after a later one, two requests at once', () => {
    expect(checkArrivals([arrival(1, 500), arrival(2), arrival(1)], events.slice(0, 2)).out_of_order).toEqual(['x: seq 2 came before seq 1 was accepted']);
    expect(checkArrivals([arrival(2), arrival(1)], events.slice(0, 2)).out_of_order).toHaveLength(2);
    expect(checkArrivals([arrival(1), arrival(2, 204, { inFlight: 2 })], events.slice(0, 2)).max_in_flight).toBe(2);
  });
});
