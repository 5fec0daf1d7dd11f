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
