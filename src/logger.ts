import { pino, type Logger } from 'pino';

/**
 * Structured logs with pino. In stdio mode stdout carries the MCP protocol, so logs go to stderr (fd 2);
 * `WAYMARK_LOG_LEVEL` sets the level (default info; `silent` turns them off).
 */
export function createLogger(options: { stderr?: boolean } = {}): Logger {
  const level = process.env.WAYMARK_LOG_LEVEL || 'info';
  return pino({ level, base: { service: 'waymark' } }, pino.destination({ fd: options.stderr ? 2 : 1, sync: false }));
}
