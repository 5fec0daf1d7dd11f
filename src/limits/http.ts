/** hostile-http: what one HTTP request may carry, checked before its JSON is parsed (issue 16, finding 3). */
export const HTTP_LIMITS = {
  /** A POST to /mcp: a bit body of bodyBytes may travel JSON-escaped (up to twice its size) inside a call. */
  mcpRequestBytes: 16 * 1024 * 1024,
  /** A JSON body under /api/v1: the largest REST input, a step's answers (about 1 MB), with room to spare. */
  restRequestBytes: 2 * 1024 * 1024,
  /**
   * The shape of a request's JSON. JSON.parse costs per value and per container (about 60 bytes of heap per
   * object), not per byte, so these bound its time, and containers are also bounded per byte so that a small
   * body of `{}` cannot cost more than a few times its size. A realistic body of 7.9 MB stored, sent as Slate
   * (bench/bodies.ts sizedBody), has 330,000 containers and 690,000 values (keys counted): these leave it room.
   */
  requestJsonContainers: 600_000,
  requestBytesPerJsonContainer: 12,
  requestJsonValues: 1_000_000,
  /** Members of one object: far above any object a tool takes (a trail_context has at most trailContextKeys). */
  requestJsonObjectMembers: 10_000,
  /**
   * Distinct keys in one request, and distinct short strings (JSON.parse internalizes both): a tool's input names
   * a few dozen keys (a trail_context at most trailContextKeys an object, a schema contextSchemaProperties).
   */
  requestJsonKeys: 1_000,
  requestJsonShortStrings: 100_000,
  /** Above the tools' own bound (MAX_INPUT_DEPTH under the JSON-RPC envelope), so a tool answers its own VALIDATION_ERROR. */
  requestJsonDepth: 300,
} as const;
