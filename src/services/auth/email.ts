/**
 * A person's email (issue 27: where they are told, how a mention or a trail_context field names them): stored
 * lower-cased, one per account (migration 017's principals_email index).
 */
import { validationError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import type { Db, Tx } from '../../store/store.js';

/** One local part, an @, and a domain with a dot: what mail can be sent to, without quoting or comments. */
const EMAIL = /^[^\s@"<>(),;:\\[\]]+@[^\s@"<>(),;:\\[\]]+\.[^\s@"<>(),;:\\[\].]{2,}$/;

/** The email as stored (trimmed, lower-cased); VALIDATION_ERROR when it is not one. */
export function checkedEmail(text: string, path = 'email'): string {
  const email = text.trim().toLowerCase();
  if (email.length > LIMITS.emailLength || !EMAIL.test(email)) {
    throw validationError([{ path, message: `${JSON.stringify(text.slice(0, 80))} is not an email address; write it as name@example.com` }]);
  }
  return email;
}

/** Refuses an email that another principal of the account already has, naming them. */
export async function assertEmailFree(q: Db | Tx, accountId: string, email: string, principalId: string | null, path = 'email'): Promise<void> {
  let query = q.selectFrom('principals').select(['id', 'name']).where('account_id', '=', accountId).where('email', '=', email);
  if (principalId !== null) query = query.where('id', '!=', principalId);
  const holder = await query.executeTakeFirst();
  if (holder) throw validationError([{ path, message: `${email} is already the email of ${holder.name} (${holder.id}); each person of an account has their own` }], undefined, { principal_id: holder.id });
}
