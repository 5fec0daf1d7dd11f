/** What a tool's input may be, and how much of it an error gives back (issue 16). */
export const INPUT_LIMITS = {
  /**
   * Nesting of a tool's arguments (arrays and objects); deeper is VALIDATION_ERROR before the schema reads them.
   * Far above what a valid input needs (a Slate body at bodyDepth is about twice that many levels), and low
   * enough that no JSON encoder, validator or store on the way (PostgreSQL's jsonb, JSON.stringify) runs out of
   * stack on it.
   */
  inputDepth: 256,
  /** An element or item id, a key, or a node label in remove_node_ids, as a tool input (record ids are UUIDs). */
  nodeRefLength: 256,
  /** A resource id or an operation name as a list_history filter (an OAuth grant's id is not a UUID). */
  historyFilterLength: 200,
  /** A next_cursor given back (the server's own are about a hundred characters). */
  cursorLength: 512,
  /** The `query` of list_bits and list_flows, in characters. */
  listQueryLength: 256,
  /** A reason given to transfer_step or cancel_trail, in characters. */
  reasonLength: 1024,
  /** Input quoted in an error message, in characters; longer input is cut with an ellipsis (src/quote.ts). */
  quotedInput: 200,
  /** Issues listed in one error (details.issue_count holds the full count) and the length of its message. */
  issuesPerError: 50,
  errorMessageLength: 4000,
} as const;
