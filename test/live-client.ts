/**
 * A reader of GET /api/v1/live over real HTTP, as the app's EventSource reads it: the server-sent events parsed
 * from the stream as they arrive, waited for by name.
 */
export interface LiveEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface LiveReader {
  status: number;
  /** Every event so far (comments and `retry` left out). */
  events: LiveEvent[];
  /** The first event named `name` after the `after`-th event (default: after those already read by next), within `timeoutMs`. */
  next(name: string, timeoutMs?: number): Promise<LiveEvent>;
  /** Whether an event named `name` arrives within `ms` (after those already read). */
  arrives(name: string, ms: number): Promise<boolean>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openLive(url: string, headers: Record<string, string>): Promise<LiveReader> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: LiveEvent[] = [];
  let read = 0;
  const waiters = new Set<() => void>();
  let endedResolve: () => void = () => {};
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  if (res.status === 200 && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const lines = block.split('\n');
            const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
            const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
            if (name && data) events.push({ event: name, data: JSON.parse(data) as Record<string, unknown> });
            for (const wake of [...waiters]) wake();
          }
        }
      } catch {
        // aborted by close()
      }
      endedResolve();
      for (const wake of [...waiters]) wake();
    })();
  } else {
    endedResolve();
  }
  const find = (name: string) => {
    for (let i = read; i < events.length; i++) {
      if (events[i].event === name) {
        read = i + 1;
        return events[i];
      }
    }
    return undefined;
  };
  const waitFor = (name: string, ms: number) =>
    new Promise<LiveEvent | undefined>((resolve) => {
      const check = () => {
        const found = find(name);
        if (found) {
          done();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        done();
        resolve(undefined);
      }, ms);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    status: res.status,
    events,
    async next(name, timeoutMs = 8000) {
      const found = await waitFor(name, timeoutMs);
      if (!found) throw new Error(`no ${name} event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
      return found;
    },
    async arrives(name, ms) {
      return (await waitFor(name, ms)) !== undefined;
    },
    ended,
    close: () => abort.abort(),
  };
}
