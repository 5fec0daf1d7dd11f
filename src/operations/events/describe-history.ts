/** describe_platform's lines on history (issue 26): how an agent reads, compares and undoes changes, in a few lines. */
export function describeHistory(): string[] {
  return [
    'Every accepted change is an event: list_history lists them newest first (filter by resource_type and resource_id, principal_id, operation, since/until).',
    'A bit, flow or reference keeps each change as a numbered revision (the event\'s revision): get_revision answers it as get_bit, get_flow or get_reference would.',
    'diff_revisions shows what changed (markdown line diff, fields, elements and connections by label); on a flow it defaults to the change since its approved version, bits included. get_flow\'s approval.changed_since says whether there is one.',
    'restore_revision writes an old revision back as a new one through the resource\'s update tool (same rules and errors); nothing is rewritten in place. start_trail with version "approved" runs the bits as last approved.',
  ];
}
