/**
 * One read-only statement as a search reader thread runs it (sqlite-reads.ts): on a connection of its own to
 * the store's file, opened read-only at the first task and kept, with each statement compiled once.
 */
import Database from 'better-sqlite3';
import { registerSqliteFunctions } from './sqlite-functions.js';

export interface ReadTask {
  file: string;
  sql: string;
  parameters: unknown[];
}

const connections = new Map<string, { database: Database.Database; statements: Map<string, Database.Statement> }>();

export function runReadTask(task: ReadTask): unknown[] {
  let connection = connections.get(task.file);
  if (!connection) {
    const database = new Database(task.file, { readonly: true, fileMustExist: true });
    database.pragma('busy_timeout = 10000');
    registerSqliteFunctions(database);
    connection = { database, statements: new Map() };
    connections.set(task.file, connection);
  }
  let statement = connection.statements.get(task.sql);
  if (!statement) {
    statement = connection.database.prepare(task.sql);
    connection.statements.set(task.sql, statement);
  }
  return statement.all(...task.parameters);
}
