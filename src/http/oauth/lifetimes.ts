/**
 * How long the authorization server's artifacts live, in seconds. Access tokens are short so that a revoked
 * grant or a lowered permission takes effect soon even for a token already handed out (the bearer check also
 * reads the principal afresh on every call); the refresh token is what keeps a client connected.
 */
export const OAUTH_LIFETIMES = {
  accessToken: 15 * 60,
  authorizationCode: 60,
  refreshToken: 30 * 24 * 3600,
  grant: 90 * 24 * 3600,
  session: 24 * 3600,
  interaction: 30 * 60,
} as const;

/** WAYMARK_OAUTH_ACCESS_TOKEN_TTL (seconds) shortens or lengthens access tokens for an operator (or a test). */
export function accessTokenTtl(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WAYMARK_OAUTH_ACCESS_TOKEN_TTL;
  if (raw === undefined || raw === '') return OAUTH_LIFETIMES.accessToken;
  const seconds = Number(raw);
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new Error(`WAYMARK_OAUTH_ACCESS_TOKEN_TTL must be a positive whole number of seconds (got '${raw}')`);
  return seconds;
}
