/**
 * Secrets kept out of what Waymark prints and logs. A PostgreSQL URL carries its password in the user part
 * (`user:password@`) or as a parameter (`?password=`, `sslpassword=`): `serve` printed it whole at start.
 */
const SECRET_PARAMETER = /pass|secret|token|key/i;
const HIDDEN = '***';

/** A URL as it may be shown: the password and every secret-looking parameter value replaced by `***`. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not a URL we can take apart: show only its scheme, never the rest.
    return `${text.split(':')[0]}:…`;
  }
  if (url.password !== '') url.password = HIDDEN;
  for (const name of new Set(url.searchParams.keys())) {
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, HIDDEN);
  }
  return url.toString();
}
