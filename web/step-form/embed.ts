/**
 * Where an embed may load from: only an absolute url of the store's safe schemes (content/url.ts, the rule
 * the store applied when the bit was saved), and for a frame only http or https (mailto: is no page).
 */
import { isSafeUrl, urlScheme } from '../../src/content/url.js';

export function frameUrl(url: unknown): string | null {
  if (typeof url !== 'string' || !isSafeUrl(url, { absolute: true })) return null;
  const scheme = urlScheme(url);
  return scheme === 'http' || scheme === 'https' ? url : null;
}

/** What an author's embedded page may do: run scripts, send forms, open popups, keep its own origin. */
const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups';

/**
 * The sandbox of an embedded page at `url` in a page of `pageOrigin`. A frame of the page's own origin given
 * both `allow-scripts` and `allow-same-origin` can reach its parent, remove its own sandbox and act as the
 * person (the HTML standard warns of exactly this pair; issue 24, finding 10): such a frame loses
 * `allow-same-origin` and runs as an opaque origin. Which origin is "own" is a fact of the deployment (and in a
 * chat client, of its host), so it is read from the page, not known to the server. A frame of any other origin
 * keeps its origin, as players and forms expect: it cannot reach a parent of another origin.
 */
export function frameSandbox(url: string, pageOrigin: string): string {
  if (new URL(url).origin !== pageOrigin) return FRAME_SANDBOX;
  return FRAME_SANDBOX.split(' ')
    .filter((flag) => flag !== 'allow-same-origin')
    .join(' ');
}

export function linkUrl(url: unknown): string | null {
  return typeof url === 'string' && isSafeUrl(url, { absolute: true }) ? url : null;
}

export type VideoSource = { kind: 'file'; src: string } | { kind: 'frame'; src: string } | { kind: 'link'; href: string };

const FILE = /\.(mp4|webm|ogg|ogv|mov)(\?|#|$)/i;

/** A video address as something the page can play: a file in <video>, a known player in a frame, else a link. */
export function videoSource(url: unknown): VideoSource | null {
  const safe = frameUrl(url);
  if (!safe) return null;
  const u = new URL(safe);
  if (FILE.test(u.pathname)) return { kind: 'file', src: safe };
  const host = u.hostname.replace(/^www\./, '');
  const youtube = host === 'youtu.be' ? u.pathname.slice(1) : host.endsWith('youtube.com') ? u.searchParams.get('v') : null;
  if (youtube && /^[\w-]{6,20}$/.test(youtube)) return { kind: 'frame', src: `https://www.youtube-nocookie.com/embed/${youtube}` };
  const vimeo = host === 'vimeo.com' ? /^\/(\d+)/.exec(u.pathname)?.[1] : null;
  if (vimeo) return { kind: 'frame', src: `https://player.vimeo.com/video/${vimeo}` };
  return { kind: 'link', href: safe };
}

/** The url as the element's urlDisplayOption asks to show it, or null for none. */
export function shownUrl(url: string, option: unknown): string | null {
  if (option === 'full') return url;
  if (option === 'domain') return new URL(url).hostname;
  return null;
}
