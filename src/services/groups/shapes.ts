/** What the group operations answer (issue 27), as zod schemas: the service's types, the operations' outputs and the app's. */
import { z } from 'zod';

export const groupViewShape = z.object({
  group_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  scope_id: z.string().nullable(),
  member_count: z.number().int(),
  created_date_time_utc: z.string(),
  updated_date_time_utc: z.string(),
});
export type GroupView = z.infer<typeof groupViewShape>;

export const groupMemberShape = z.object({ principal_id: z.string(), name: z.string() });

export const groupWithMembersShape = groupViewShape.extend({ members: z.array(groupMemberShape) });
export type GroupWithMembers = z.infer<typeof groupWithMembersShape>;

export const groupListShape = z.object({ groups: z.array(groupViewShape) });
export type GroupList = z.infer<typeof groupListShape>;
