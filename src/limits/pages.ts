/** Pages of the list tools, the inbox and the REST lists (issue 15: each was a constant of the service or tool that used it). */
export const PAGE_LIMITS = {
  /** The interface document's largest page (section Limits). */
  pageSize: 100,
  /** Rows of list_bits, list_flows and list_trails when `limit` is omitted (at most pageSize). */
  defaultPageSize: 50,
  /** Inbox items per page by default. */
  inboxPageSize: 20,
} as const;
