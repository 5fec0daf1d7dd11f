/** app-back: sign-in links and web app sessions (issue 11). */
export const SESSION_LIMITS = {
  /** A sign-in link's life when `--expires-in` is not given (15 minutes). */
  signinLinkMs: 15 * 60_000,
  /** The longest life a sign-in link may be given (7 days). */
  signinLinkMaxMs: 7 * 86_400_000,
  /** A session unused this long ends (12 hours). */
  sessionIdleMs: 12 * 3_600_000,
  /** A session ends this long after sign-in, however used (7 days). */
  sessionAbsoluteMs: 7 * 86_400_000,
} as const;
