/** Loading a page's data: the data, or a clear message (never a blank page). */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export type Loaded<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'failed'; message: string; code?: string };

/** The data, a reload, and a way to show data the page already has (an answer that carries the new state). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void, (data: T) => void] {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setResult({ state: 'ok', data }),
      (e: { message?: string; code?: string }) => live && setResult({ state: 'failed', message: e.message ?? String(e), code: e.code }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return [result, () => setTick((t) => t + 1), (data) => setResult({ state: 'ok', data })];
}

export function Show<T>({ loaded, title, children }: { loaded: Loaded<T>; title: string; children: (data: T) => ComponentChildren }) {
  if (loaded.state === 'loading') return <p class="loading">Loading…</p>;
  if (loaded.state === 'failed') {
    return (
      <>
        <h1>{title}</h1>
        <p role="alert" class="error-summary">
          {loaded.code?.endsWith('_NOT_FOUND') ? 'Not found: it does not exist, or it is not yours to see.' : loaded.message}
        </p>
      </>
    );
  }
  return <>{children(loaded.data)}</>;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
