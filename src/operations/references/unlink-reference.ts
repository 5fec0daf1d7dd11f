import { z } from 'zod';
import { LINK_ACCESS } from '../../services/references/references.service.js';
import { defineOperation, errorCode } from '../operation.js';
import { bitId, lastModifiedIgnored, linkRemoved, referenceId } from './reference-schemas.js';

export const unlinkReferenceTool = defineOperation({
  name: 'unlink_reference',
  title: 'Unlink a reference from a bit',
  description:
    `Removes a bit's link to a reference; later links move up. Works on an archived bit too, so that the reference can be archived. A second call is ${errorCode('BIT_REFERENCE_LINK_NOT_FOUND')}.`,
  flags: { W: true, D: true, I: false },
  access: { ...LINK_ACCESS, afterLookup: true },
  input: z.strictObject({
    bit_id: bitId,
    reference_id: referenceId,
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: linkRemoved,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.references.unlink(actor, input),
});
