/**
 * Regression floor of round-trip fidelity on the CommonMark and GFM spec examples (bench/fidelity.ts has
 * the full report: `npx tsx bench/fidelity.ts`).
 */
import { describe, expect, it } from 'vitest';
import { runFidelity } from '../../../bench/fidelity.js';

/** Failures we accept, each for a stated reason (bench/fidelity.ts categorises them). */
const EXPLAINED = new Set([
  // Slate marks are booleans on text: <em><em>x</em></em> is one italic.
  'nested emphasis of the same kind',
  // Autolinks with schemes other than http, https and mailto (irc:, made-up-scheme:) are refused by design.
  'refused: unsafe url',
]);

describe('round-trip fidelity on the spec examples', () => {
  const results = runFidelity();

  for (const suite of results) {
    it(`${suite.suite}: at least 96% kept, 100% idempotent, every failure explained`, () => {
      expect(suite.keptPercent).toBeGreaterThanOrEqual(96);
      expect(suite.idempotentPercent).toBe(100);
      expect(suite.failures.filter((f) => !EXPLAINED.has(f.category)).map((f) => `${f.number} ${f.category}`)).toEqual([]);
    });
  }
});
