/**
 * What parsing cost the event loop while `work` ran: the turns it took (a setImmediate chain counts them) and the
 * longest text JSON.parse was given. For the tests of bodies parsed in pieces (issue 16): one JSON.parse of a large
 * text is one long turn, which these two figures show without timing anything.
 */
import { vi } from 'vitest';

export async function parseTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; longest: number }> {
  const parse = vi.spyOn(JSON, 'parse');
  let turns = 0;
  let done = false;
  const tick = () => {
    turns++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await work();
    return { result, turns, longest: Math.max(0, ...parse.mock.calls.map(([text]) => text.length)) };
  } finally {
    done = true;
    parse.mockRestore();
  }
}
