/** The anchor scheme comes from the configured brand (CONTRACT.md, "Brand"); nothing hard-codes it. */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  delete process.env.WAYMARK_BRAND;
  vi.resetModules();
});

describe('brand', () => {
  it('reads and prints anchors with the configured scheme', async () => {
    vi.resetModules();
    process.env.WAYMARK_BRAND = 'acme';
    const content = await import('./index.js');
    let n = 0;
    const newId = () => `00000000-0000-4000-8000-00000000000${++n}`;
    const { body } = content.markdownToBody('[text-area: Notes](acme-node:k)\n', { elements: [{ key: 'k', type: 'text-area' }], newId });
    expect(content.bodyToMarkdown(body)).toBe('[text-area: Notes](acme-node:00000000-0000-4000-8000-000000000001)\n');
    expect(content.describeElement('iframe').markdown).toBe('[iframe](acme-node:<key>)');
    let refused: unknown;
    try {
      content.markdownToBody('[text-area: Notes](waymark-node:k)\n', { elements: [{ key: 'k', type: 'text-area' }] });
    } catch (e) {
      refused = e;
    }
    // Under another brand, waymark-node: is just an unknown scheme.
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
