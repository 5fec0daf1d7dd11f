import { sql, type Kysely, type Migration } from 'kysely';
import { jsonColumnType, type MigrationTarget } from './engine.js';

/** The whole schema the tools need; later changes come as new numbered migrations. */
export function initialSchema(dialect: MigrationTarget): Migration {
  const json = sql.raw(jsonColumnType(dialect));
  const serial = dialect.engine === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('scopes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('principals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('scope_id', 'text', (c) => c.references('scopes.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('permission', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('capabilities', json, (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('bits')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('scope_id', 'text', (c) => c.references('scopes.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('abstract', 'text')
        .addColumn('description', 'text')
        .addColumn('body', json, (c) => c.notNull())
        .addColumn('categories', json, (c) => c.notNull())
        .addColumn('complexity', 'text', (c) => c.notNull())
        .addColumn('human_required', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bits_account_updated').on('bits').columns(['account_id', 'updated_at', 'id']).execute();
      await db.schema
        .createTable('connections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('source_bit_id', 'text', (c) => c.notNull().references('bits.id'))
        .addColumn('target_bit_id', 'text', (c) => c.notNull().references('bits.id'))
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        // A safety net under the row lock: two appends can never take the same position.
        .addUniqueConstraint('connections_source_sort_order', ['source_bit_id', 'sort_order'])
        .execute();
      await db.schema.createIndex('connections_target').on('connections').column('target_bit_id').execute();
      await db.schema
        .createTable('flows')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('scope_id', 'text', (c) => c.references('scopes.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('categories', json, (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('start_bit_id', 'text', (c) => c.notNull().references('bits.id'))
        .addColumn('trail_context_schema', json)
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('review_status', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('flows_start_bit').on('flows').column('start_bit_id').execute();
      await db.schema
        .createTable('library_references')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('scope_id', 'text', (c) => c.references('scopes.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('abstract', 'text')
        .addColumn('content', json, (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('categories', json, (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('author_principal_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('bit_reference_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('bit_id', 'text', (c) => c.notNull().references('bits.id'))
        .addColumn('reference_id', 'text', (c) => c.notNull().references('library_references.id'))
        .addColumn('display_label', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('bit_reference_links_pair', ['bit_id', 'reference_id'])
        .execute();
      await db.schema.createIndex('bit_reference_links_reference').on('bit_reference_links').column('reference_id').execute();
      await db.schema
        .createTable('trails')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('scope_id', 'text', (c) => c.references('scopes.id'))
        .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id'))
        .addColumn('title', 'text')
        .addColumn('context', json, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('current_step_id', 'text')
        .addColumn('started_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('trail_steps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('trail_id', 'text', (c) => c.notNull().references('trails.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('bit_id', 'text', (c) => c.notNull())
        .addColumn('bit_snapshot', json, (c) => c.notNull())
        .addColumn('entered_at', 'text', (c) => c.notNull())
        .addColumn('left_at', 'text')
        .addColumn('left_by_connection_id', 'text')
        .addColumn('transfer_reason', 'text')
        .addUniqueConstraint('trail_steps_seq', ['trail_id', 'seq'])
        .execute();
      await db.schema
        .createTable('trail_answers')
        .addColumn('id', sql.raw(serial), (c) => (dialect.engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('trail_id', 'text', (c) => c.notNull().references('trails.id'))
        .addColumn('step_id', 'text', (c) => c.notNull().references('trail_steps.id'))
        .addColumn('element_id', 'text', (c) => c.notNull())
        .addColumn('element_type', 'text', (c) => c.notNull())
        .addColumn('value', json, (c) => c.notNull())
        .addColumn('warnings', json)
        .addColumn('answered_by', 'text', (c) => c.notNull())
        .addColumn('answered_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trail_answers_step').on('trail_answers').columns(['step_id', 'element_id']).execute();
    },
  };
}
