/**
 * A real `waymark serve` HTTP app on a harness's store, and a browser-like client for it: it keeps the cookies
 * the server sets (session, CSRF) and sends the CSRF header the app sends, so tests drive sign-in, the session
 * and /api/v1 exactly as the web app does.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeLiveStreams, createHttpApp } from '../src/http/app.js';
import type { LiveOptions } from '../src/http/live/live-hub.js';
import type { Registry } from '../src/operations/registry.js';
import type { Services } from '../src/services/index.js';
import { silentLogger } from './harness.js';

export interface WebServer {
  origin: string;
  close(): Promise<void>;
}

export async function startWebServer(services: Services, options: { publicUrl?: string; registry?: Registry; live?: LiveOptions } = {}): Promise<WebServer> {
  const app = createHttpApp(services, silentLogger, { host: '127.0.0.1', port: 0, publicUrl: options.publicUrl, registry: options.registry, live: options.live });
  const server: Server = app.listen(0, '127.0.0.1');
  // fetch keeps connections alive; a server closing an idle one (5 s by default) just as a slow test reuses it
  // answers ECONNRESET. Tests on a loaded machine pause longer than that between requests.
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await closeLiveStreams(app);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: { success: boolean; data?: T; error?: { code: string; message: string; errorId: string; status: number; details?: Record<string, unknown> } };
}

export class Browser {
  readonly cookies = new Map<string, string>();
  csrf: string | null = null;
  constructor(readonly origin: string) {}

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) <= Date.now());
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(path: string, init: RequestInit & { csrf?: boolean } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (init.csrf !== false && this.csrf) headers.set('x-csrf-token', this.csrf);
    const res = await fetch(`${this.origin}${path}`, { ...init, headers, redirect: 'manual' });
    this.keep(res);
    return res;
  }

  /** Opens a sign-in URL as a browser does; answers the response (303 on success). */
  async open(url: string): Promise<Response> {
    const u = new URL(url);
    return this.fetch(`${u.pathname}${u.search}`);
  }

  /** GET /api/v1/me, keeping the CSRF token it hands out. */
  async me(): Promise<ApiAnswer> {
    const answer = await this.get('/me');
    if (answer.body.success) this.csrf = (answer.body.data?.csrf_token as string | null) ?? null;
    return answer;
  }

  async get<T = Record<string, unknown>>(path: string): Promise<ApiAnswer<T>> {
    const res = await this.fetch(`/api/v1${path}`);
    return { status: res.status, body: (await res.json()) as ApiAnswer<T>['body'] };
  }

  async post<T = Record<string, unknown>>(path: string, body?: unknown, options: { csrf?: boolean } = {}): Promise<ApiAnswer<T>> {
    const res = await this.fetch(`/api/v1${path}`, {
      method: 'POST',
      csrf: options.csrf,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: res.status, body: (await res.json()) as ApiAnswer<T>['body'] };
  }

  /** The data of a call that must succeed. */
  async ok<T = Record<string, unknown>>(answer: Promise<ApiAnswer<T>>): Promise<T> {
    const { status, body } = await answer;
    if (!body.success) throw new Error(`expected success, got ${status} ${JSON.stringify(body.error)}`);
    return body.data as T;
  }
}

/** A person signed in to the app through a one-time link, with the CSRF token read from /me. */
export async function signedIn(services: Services, origin: string, principalId: string): Promise<Browser> {
  const link = await services.signin.createLink({ principalId });
  const browser = new Browser(origin);
  const res = await browser.open(`${origin}/app/signin?token=${encodeURIComponent(link.token)}`);
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  await browser.me();
  return browser;
}
