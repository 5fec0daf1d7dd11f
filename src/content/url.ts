/**
 * The one url-safety rule of bodies and url props. A url with a scheme must use http, https or mailto
 * (our own schemes are read by their constructs before this is asked). In a link or image of prose, a url
 * without a scheme (a path, `#fragment`, `?query`, empty) is a relative reference that cannot run script, so
 * it is kept: refusing it would break ordinary markdown such as `[see below](#steps)`. A url prop of an
 * element (iframe, link-block, link-inline, video-external) is opened or embedded on its own, so it must be
 * absolute.
 */
import { validationError } from '../errors.js';
import { quote } from '../quote.js';

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

export function isSafeUrl(url: string, opts: { absolute?: boolean } = {}): boolean {
  const scheme = urlScheme(url);
  return scheme === null ? !opts.absolute : SAFE_SCHEMES.includes(scheme);
}

/**
 * Throws VALIDATION_ERROR (a field rule, CONTRACT.md; `details.url`) unless `url` uses a safe scheme, or is
 * relative where that is allowed.
 */
export function assertSafeUrl(url: string, where?: string, opts: { absolute?: boolean } = {}): void {
  if (isSafeUrl(url, opts)) return;
  const scheme = urlScheme(url);
  const problem = scheme === null ? 'has no scheme' : `uses the scheme '${scheme}:'`;
  const allowed = opts.absolute ? 'an http, https or mailto url is required' : 'only http, https and mailto (or a relative url) are allowed';
  throw validationError([{ path: where ?? 'url', message: `the url '${quote(url)}' ${problem}; ${allowed}` }], undefined, { url: quote(url) });
}
