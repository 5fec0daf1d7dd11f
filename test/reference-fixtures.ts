/**
 * Fixtures for the References Library tests: references made through create_reference, bits through the
 * bit tools (bit-fixtures.ts), the write path the server serves.
 */
import type { ToolClient } from './harness.js';

export { makeBit } from './bit-fixtures.js';

export const para = (text: string) => [{ type: 'p', children: [{ text }] }];

export async function makeReference(client: ToolClient, fields: Record<string, unknown> = {}): Promise<string> {
  const data = await client.ok<{ reference_id: string }>('create_reference', {
    reference_title: 'Reference',
    reference_content: para('Some reference text.'),
    ...fields,
  });
  return data.reference_id;
}
