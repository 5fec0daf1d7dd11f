/**
 * The one url-safety rule of bodies and url props. A url with a scheme must use http, https or mailto
 * (or, inside its own construct, one of our schemes); a url without a scheme (a path, `#fragment`, `?query`,
 * empty) is a relative reference that cannot run script, so it is kept: refusing it would break ordinary
 * markdown such as `[see below](#steps)`.
 */
import { WaymarkError } from '../errors.js';

export const SAFE_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

// Browsers drop ASCII tab and newline anywhere in a url and C0 controls and spaces around it before reading
// the scheme, so `java\tscript:` is `javascript:`: strip them the same way before looking.
// eslint-disable-next-line no-control-regex
const IGNORED_BY_BROWSERS = /[\u0000-\u0020\u007f]/g;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The lowercased scheme of a url, or null for a relative reference. */
export function urlScheme(url: string): string | null {
  const m = SCHEME.exec(url.replace(IGNORED_BY_BROWSERS, ''));
  return m ? m[1].toLowerCase() : null;
}

export function isSafeUrl(url: string): boolean {
  const scheme = urlScheme(url);
  return scheme === null || SAFE_SCHEMES.includes(scheme);
}

/** Throws UNSAFE_URL unless `url` is relative or uses a safe scheme. */
export function assertSafeUrl(url: string, where?: string): void {
  if (isSafeUrl(url)) return;
  throw new WaymarkError(
    'UNSAFE_URL',
    `${where ? `${where}: ` : ''}the url '${url}' uses the scheme '${urlScheme(url)}:'; only http, https and mailto (or a relative url) are allowed`,
    { url },
  );
}
