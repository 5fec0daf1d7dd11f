/**
 * Who may see a row (CONTRACT.md, "Accounts, scopes"), stated once as SQL: every read that checks visibility
 * puts this fragment in its WHERE, so another account's rows, and other scopes' rows for a scope-limited
 * principal, are never read at all, and "not visible" is the same answer as "does not exist".
 */
import { sql, type Expression, type SqlBool } from 'kysely';

/** What a caller may see: its account, and (for a scope-limited principal) its scope and account level. */
export interface Visibility {
  accountId: string;
  /** Set when the principal is limited to one scope of its account. */
  scopeId: string | null;
}

/** `table.column`, or the bare column when the query reads one table. */
function column(table: string | undefined, name: 'account_id' | 'scope_id') {
  return sql.ref(table === undefined ? name : `${table}.${name}`);
}

/**
 * The rows of `table` (or the query's only table) that `seen` may see. Undefined `seen` is a read the services
 * make on their own behalf (a trail's snapshot bit, the sources of a bit being archived): no condition.
 */
export function visibleTo(seen: Visibility | undefined, table?: string): Expression<SqlBool> {
  if (seen === undefined) return sql<SqlBool>`1 = 1`;
  const account = column(table, 'account_id');
  if (seen.scopeId === null) return sql<SqlBool>`${account} = ${seen.accountId}`;
  const scope = column(table, 'scope_id');
  return sql<SqlBool>`(${account} = ${seen.accountId} and (${scope} is null or ${scope} = ${seen.scopeId}))`;
}

/**
 * A list's own scope filter, inside what is visible: undefined is every visible scope, null the account level
 * only, an id that scope only.
 */
export function inScope(scopeId: string | null | undefined, table?: string): Expression<SqlBool> {
  if (scopeId === undefined) return sql<SqlBool>`1 = 1`;
  const scope = column(table, 'scope_id');
  if (scopeId === null) return sql<SqlBool>`${scope} is null`;
  return sql<SqlBool>`${scope} = ${scopeId}`;
}

/**
 * The whole account, for the services' reads on behalf of a record the caller has already been shown (a trail's
 * next bit and connection targets, a flow's graph): they stay inside its account, whatever scope they are in.
 */
export function accountWide(accountId: string): Visibility {
  return { accountId, scopeId: null };
}
