/**
 * JSON with its keys sorted at every level: two values are the same content when their canonical texts are equal,
 * whatever order their keys were built in (a body converted from markdown and the same body as stored).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );
}
