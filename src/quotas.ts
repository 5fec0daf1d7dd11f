/**
 * A tenant's fair share (issue 24): how much one token and one account may ask of a server process. The interface
 * document leaves quotas open ("Rate limits and request quotas: not shown"); these are ours, read once from the
 * environment, enforced by the HTTP doors (rates, http/rate-limit.ts) and the conversion threads (concurrency,
 * services/fair-share.ts), and shown to agents by describe_platform.
 *
 * The request rates hold across every server process on the store (issue 31: counted in the store,
 * services/shared-counters.ts), so `serve --workers N` or N machines let an account its rate, not N times it.
 * The concurrency figures (conversions, heavy reads, the line, and the searches at once of limits/search.ts) hold
 * per server process, by design: what they share out is the process's own conversion threads and connection pool,
 * so N processes let an account N times the concurrency, and the store N times the searches at once (each
 * process's pool, WAYMARK_PG_POOL_SIZE, bounds what it sends to PostgreSQL).
 */

export interface Quotas {
  /** Requests of one token (API key, OAuth access token or web session) in a window; 0 turns it off. */
  requestsPerToken: number;
  /** Requests of one account, all its tokens together, in a window; 0 turns it off. */
  requestsPerAccount: number;
  /** The rate window, in seconds. */
  windowSeconds: number;
  /** Conversions of a body (add_bit, update_bit over a conversion thread) running at once, per token and per account. */
  conversionsPerToken: number;
  conversionsPerAccount: number;
  /** Heavy reads (a large body printed, read or encoded on a conversion thread) running at once, per token and per account. */
  heavyReadsPerToken: number;
  heavyReadsPerAccount: number;
  /** Calls of one account that may wait in line for a conversion or a heavy read; beyond it they are refused at once. */
  waitingPerAccount: number;
  /** Requests from one network address to the endpoints that need no token (sign-in pages, OAuth), per window; 0 turns it off. */
  anonymousPerAddress: number;
  /** Dynamic client registrations from one network address per hour; 0 turns it off. */
  registrationsPerAddress: number;
}

const DEFAULTS: Quotas = {
  requestsPerToken: 1200,
  requestsPerAccount: 3000,
  windowSeconds: 60,
  conversionsPerToken: 1,
  conversionsPerAccount: 1,
  heavyReadsPerToken: 2,
  heavyReadsPerAccount: 2,
  waitingPerAccount: 16,
  anonymousPerAddress: 300,
  registrationsPerAddress: 20,
};

/** The environment variable of each quota: WAYMARK_QUOTA_ and the name in capitals with underscores. */
export function quotaVariable(name: keyof Quotas): string {
  return `WAYMARK_QUOTA_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

const AT_LEAST_ONE: ReadonlySet<keyof Quotas> = new Set(['windowSeconds', 'conversionsPerToken', 'conversionsPerAccount', 'heavyReadsPerToken', 'heavyReadsPerAccount']);

export function quotasFromEnv(env: NodeJS.ProcessEnv = process.env): Quotas {
  const quotas = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as Array<keyof Quotas>) {
    const text = env[quotaVariable(name)];
    if (text === undefined || text === '') continue;
    const value = Number(text);
    const least = AT_LEAST_ONE.has(name) ? 1 : 0;
    if (!Number.isInteger(value) || value < least) throw new Error(`${quotaVariable(name)} must be a whole number of at least ${least} (got ${text})`);
    quotas[name] = value;
  }
  return quotas;
}

let current: Quotas | undefined;

/** This process's quotas, read from its environment on first use (`serve` reads them at start, to refuse a bad value in words). */
export function processQuotas(): Quotas {
  current ??= quotasFromEnv();
  return current;
}

/** describe_platform's view: snake_case names, 0 meaning no limit. */
export function describeQuotas(quotas: Quotas = processQuotas()): Record<string, number> {
  return {
    requests_per_token: quotas.requestsPerToken,
    requests_per_account: quotas.requestsPerAccount,
    window_seconds: quotas.windowSeconds,
    concurrent_conversions_per_token: quotas.conversionsPerToken,
    concurrent_conversions_per_account: quotas.conversionsPerAccount,
    concurrent_heavy_reads_per_token: quotas.heavyReadsPerToken,
    concurrent_heavy_reads_per_account: quotas.heavyReadsPerAccount,
    waiting_per_account: quotas.waitingPerAccount,
  };
}
