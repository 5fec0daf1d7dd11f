import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * Running a process as a team (issue 27): who does a step, by when, and being told.
 *
 * - principals.email: where a person is told by mail, and how `@` mentions and a trail_context field name them;
 *   stored lower-cased, one per account.
 * - groups and group_members: people an Admin groups per account (and scope) so a step can be offered to them.
 * - bits.assignee: who does the bit's step when a trail enters it ("starter", "person:<id>", "group:<id>",
 *   "context:<field>"; null: anyone who may run the trail); bits.expected_duration: how long its step should take
 *   (ISO 8601 duration), so the step's due time follows.
 * - trail_steps.assignee_principal / assignee_group / due_at: whom the step was given to and by when, as entered
 *   (claim, release and reassignment change them); overdue_reminded: its overdue reminder was recorded.
 * - trails.step_assignee / step_group / step_due_at: the current step's, kept in the same transaction as every
 *   change of the step, so the inbox reads them from indexes (issue 31) and never out of a snapshot; trails.due_at
 *   and due_reminded: the trail's own deadline and its reminder.
 * - trail_comments: what people and agents say on a step.
 * - notifications: what a person is told, recorded in the transaction of the change that causes it and sent by
 *   mail afterwards (email_state pending → sent), under a lease like the webhooks' endpoints.
 * - notification_settings: which kinds a person gets by mail.
 */
export function teamRuns(target: MigrationTarget): Migration {
  const serial = target.engine === 'postgres' ? 'bigserial' : 'integer';
  const open = sql<boolean>`status IN ('running', 'waiting_for_person')`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('principals').addColumn('email', 'text').execute();
      await db.schema.createIndex('principals_email').on('principals').columns(['account_id', 'email']).unique().where(sql<boolean>`email IS NOT NULL`).execute();

      await db.schema
        .createTable('groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('groups_account_name').on('groups').columns(['account_id', 'name']).unique().execute();
      await db.schema
        .createTable('group_members')
        .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id'))
        .addColumn('principal_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('added_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'principal_id'])
        .execute();
      await db.schema.createIndex('group_members_principal').on('group_members').columns(['principal_id', 'group_id']).execute();

      await db.schema.alterTable('bits').addColumn('assignee', 'text').execute();
      await db.schema.alterTable('bits').addColumn('expected_duration', 'text').execute();

      await db.schema.alterTable('trail_steps').addColumn('assignee_principal', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('assignee_group', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('due_at', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('overdue_reminded', 'integer', (c) => c.notNull().defaultTo(0)).execute();

      await db.schema.alterTable('trails').addColumn('step_assignee', 'text').execute();
      await db.schema.alterTable('trails').addColumn('step_group', 'text').execute();
      await db.schema.alterTable('trails').addColumn('step_due_at', 'text').execute();
      await db.schema.alterTable('trails').addColumn('step_reminded', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('trails').addColumn('due_at', 'text').execute();
      await db.schema.alterTable('trails').addColumn('due_reminded', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // The inbox's "mine" and "my groups" ranges, in its order; the scheduler's due ranges, not yet reminded.
      await db.schema.createIndex('trails_inbox_assignee').on('trails').columns(['account_id', 'step_assignee', 'updated_at', 'id']).where(open).execute();
      await db.schema.createIndex('trails_inbox_group').on('trails').columns(['account_id', 'step_group', 'updated_at', 'id']).where(open).execute();
      await db.schema.createIndex('trails_step_due').on('trails').columns(['step_due_at']).where(sql<boolean>`step_due_at IS NOT NULL AND step_reminded = 0 AND status IN ('running', 'waiting_for_person')`).execute();
      await db.schema.createIndex('trails_due').on('trails').columns(['due_at']).where(sql<boolean>`due_at IS NOT NULL AND due_reminded = 0 AND status IN ('running', 'waiting_for_person')`).execute();

      await db.schema
        .createTable('trail_comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('trail_id', 'text', (c) => c.notNull().references('trails.id'))
        .addColumn('step_id', 'text', (c) => c.notNull())
        .addColumn('principal_id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('mentions', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trail_comments_trail').on('trail_comments').columns(['trail_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', sql.raw(serial), (c) => (target.engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('principal_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('trail_id', 'text')
        .addColumn('step_id', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text')
        .addColumn('email_state', 'text', (c) => c.notNull())
        .addColumn('email_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('email_next_at', 'text')
        .addColumn('email_lease_id', 'text')
        .addColumn('email_leased_until', 'text')
        .addColumn('email_error', 'text')
        .execute();
      await db.schema.createIndex('notifications_principal').on('notifications').columns(['principal_id', 'id']).execute();
      await db.schema.createIndex('notifications_unread').on('notifications').columns(['principal_id', 'id']).where(sql<boolean>`read_at IS NULL`).execute();
      await db.schema.createIndex('notifications_mail').on('notifications').columns(['email_next_at', 'id']).where(sql<boolean>`email_state = 'pending'`).execute();

      await db.schema
        .createTable('notification_settings')
        .addColumn('principal_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('email_kinds', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
