/**
 * The waymark command: it reads the subcommand and loads only that one's module (serve.ts, stdio.ts,
 * commands.ts), so each door loads what it serves: `waymark stdio` never loads Express, OAuth or the web app,
 * and answers `initialize` before it loads the store and the tools (stdio.ts). Nothing heavy is imported here.
 */
import { allCapabilityNames } from '../config.js';
import { WaymarkError } from '../errors.js';
import { UsageError } from './args.js';
import { EXIT, type CliIo } from './io.js';

export type { CliIo } from './io.js';

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

const USAGE = `Usage: waymark <command>

  serve [--host 127.0.0.1] [--port 3000] [--workers N|auto]
                                           MCP over Streamable HTTP at /mcp, REST at /api/v1, the web app at /app,
                                           GET /healthz; --workers: server processes sharing the port (default 1)
  stdio                                    MCP over stdio, authenticated by WAYMARK_TOKEN
  init [--new-token] [--expires-in 30d] [--sample]
                                           create the store, an account and an Admin owner; print a token;
                                           --sample: add the sample flow (approved and active) to try Waymark with
  account create NAME                      print the new account id
  scope create --account ID NAME           print the new scope id
  token create --account ID --permission view|edit|admin --capabilities a,b,c
               [--scope ID] [--kind agent|person] [--principal ID] [--expires-in 30d]
               [--name NAME] [--email ADDRESS]   (a new person's name and email)
                                           print a new token (and nothing else)
  token list --account ID                  the account's tokens: id, principal, kind, capabilities,
                                           created, expires, revoked (never a token or its hash)
  token revoke TOKEN_ID                    refuse that token from now on
  signin-link create --principal ID [--expires-in 15m] [--capabilities read,run]
                                           print a one-time sign-in URL of the web app for a person
  session revoke --principal ID            end every web app session of a principal; print how many
  audit verify --account ID                check the account's event chain: OK, or name the first edited
                                           or missing event
  webhook list|create|remove|rotate|deliveries --account ID [WEBHOOK_ID]
               [--url URL --events a,b|*] [--scope ID] [--overlap-hours 24]
                                           manage the account's webhook subscriptions (a secret is
                                           printed once, by create and rotate)
  group list|show|create|delete|add|remove --account ID [GROUP] [PEOPLE…]
               [--scope ID] [--description TEXT]
                                           manage the account's groups of people: create NAME, show or delete
                                           GROUP, add GROUP PERSON…, remove GROUP PERSON (a group by id or
                                           name, a person by principal id or email)
  export (--flow ID | --scope ID | --account ID) --out DIR
                                           write a flow (and the bits it reaches), a scope or the account level
                                           as a folder of markdown and YAML files, to keep in git
  import --account ID [--scope ID] [--dry-run] [--check] [--prune] DIR
                                           create or update the folder's records, all or nothing; print the plan;
                                           --prune archives what has no file; --check: a dry run that exits 3
                                           when the folder and Waymark differ
  trails archive --older-than 90d          archive the completed and cancelled trails last changed before then
                                           (they leave list_trails unless include_archived; get_trail still
                                           reads them); WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS makes serve do it hourly
  migrate                                  bring the store's schema up to date

Capabilities: ${allCapabilityNames().join(', ')}
Store: WAYMARK_DATABASE_URL=postgres://… for PostgreSQL, else ./.waymark (WAYMARK_DATA_DIR moves it).`;

/** A command answers its exit code, or nothing for success. */
type Command = (argv: string[], io: CliIo) => Promise<void | number>;

/** Each command's module, imported when that command runs. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serve,
  stdio: async () => (await import('./stdio.js')).stdio,
  init: async () => (await import('./commands.js')).init,
  account: async () => (await import('./commands.js')).account,
  scope: async () => (await import('./commands.js')).scope,
  token: async () => (await import('./commands.js')).token,
  'signin-link': async () => (await import('./commands.js')).signinLink,
  session: async () => (await import('./commands.js')).session,
  audit: async () => (await import('./commands.js')).audit,
  webhook: async () => (await import('./webhook.js')).webhook,
  group: async () => (await import('./group.js')).group,
  trails: async () => (await import('./trails.js')).trails,
  migrate: async () => (await import('./commands.js')).migrate,
  export: async () => (await import('./folder.js')).exportFolder,
  import: async () => (await import('./folder.js')).importFolder,
};

export async function main(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const load = command && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  try {
    if (!command) throw new UsageError('a command is needed');
    if (!load) throw new UsageError(`unknown command '${command}'`);
    const run = await load();
    return (await run(rest, io)) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`waymark: ${error.message}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    if (error instanceof WaymarkError) {
      io.stderr.write(`waymark: ${error.message}\n`);
      // An import's problems, one line each as compilers print them, for an editor or a CI log to point at.
      const problems = (error.details as { problems?: Array<{ file: string; line: number | null; code: string; message: string }> } | undefined)?.problems ?? [];
      for (const p of problems) io.stderr.write(`${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.code} ${p.message}\n`);
      return EXIT.failure;
    }
    io.stderr.write(`waymark: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
}
