/**
 * A tiny router over the location hash (`#/trails/…`): the document stays /app/, so the server needs no
 * route of its own for a page, and every page but the inbox is a chunk loaded when first visited.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export type Params = Record<string, string>;
export type Page = ComponentType<{ params: Params }>;

export interface Route {
  pattern: string;
  load: () => Promise<Page>;
}

export function currentPath(): string {
  const hash = location.hash.replace(/^#/, '');
  return hash === '' ? '/' : hash;
}

/** `/trails/:trail_id/step` against `/trails/abc/step` → {trail_id: 'abc'}; null when it does not match. */
export function matchPath(pattern: string, path: string): Params | null {
  const want = pattern.split('/');
  const [pathname, search = ''] = path.split('?');
  const got = pathname.split('/');
  if (want.length !== got.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  for (const [k, v] of new URLSearchParams(search)) params[`?${k}`] = v;
  return params;
}

export function navigate(path: string): void {
  location.hash = path;
}

export function href(path: string): string {
  return `#${path}`;
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const on = () => setPath(currentPath());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return path;
}
