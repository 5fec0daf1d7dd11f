/**
 * Every limit of the interface document (section Limits), in one place. Tool schemas, services,
 * the converter and describe_platform all read them from here.
 */
export const LIMITS = {
  title: 256,
  bitAbstract: 2048,
  bitDescription: 1024,
  flowDescription: 1024,
  referenceAbstract: 2048,
  categories: 50,
  categoryLength: 128,
  displayLabel: 128,
  elementKeyLength: 32,
  entriesAndItemsPerCall: 200,
  outgoingConnections: 20,
  /** bit_body after conversion, in bytes of its stored JSON (8 MB). */
  bodyBytes: 8 * 1024 * 1024,
  /** Nesting of blocks and inlines accepted before parsing (our bound, not the document's). */
  bodyDepth: 64,
  searchableFieldData: 5000,
  pageSize: 100,
  // app-back: sign-in links and web app sessions (issue 11)
  /** A sign-in link's life when `--expires-in` is not given (15 minutes). */
  signinLinkMs: 15 * 60_000,
  /** The longest life a sign-in link may be given (7 days). */
  signinLinkMaxMs: 7 * 86_400_000,
  /** A session unused this long ends (12 hours). */
  sessionIdleMs: 12 * 3_600_000,
  /** A session ends this long after sign-in, however used (7 days). */
  sessionAbsoluteMs: 7 * 86_400_000,
  /** Inbox items per page by default. */
  inboxPageSize: 20,
} as const;

export const ELEMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
