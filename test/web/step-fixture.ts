/**
 * A bit body holding all ten element types and the body constructs the step page renders: what the step
 * form's unit tests and the browser tests both use.
 */
import type { ElementEntry } from '../../src/content/index.js';

export const ALL_ELEMENTS_MARKDOWN = `## Before you ship

Read the [release guide](https://example.com/guide) and open the [change log](https://example.com/changes "waymark-node:changes") first.

| Check | Owner |
| --- | :-: |
| Tests | CI |

\`\`\`sh
npm run build
\`\`\`

[check-list: Preflight](waymark-node:preflight)
- [ ] [Tests are green](waymark-node:tests)
- [x] [Notes written](waymark-node:notes_written)

[radio-button: Risk](waymark-node:risk)
- ( ) [Low](waymark-node:low)
- ( ) [High](waymark-node:high)

[dropdown: Region](waymark-node:region)
- [Europe](waymark-node:eu)
- [Americas](waymark-node:us)

[searchable-field: Reviewers](waymark-node:reviewers)

[date-picker: Ship date](waymark-node:ship_date)

[text-area: Summary](waymark-node:summary)

[link-block](waymark-node:runbook)

[video-external](waymark-node:demo)

[iframe](waymark-node:status)
`;

export const ALL_ELEMENTS_ENTRIES: ElementEntry[] = [
  { key: 'changes', type: 'link-inline', props: { url: 'https://example.com/changes' } },
  { key: 'preflight', type: 'check-list', props: { label: 'Preflight' }, items: [{ key: 'tests', text: 'Tests are green', required: true }, { key: 'notes_written', text: 'Notes written', checked: true }] },
  { key: 'risk', type: 'radio-button', props: { label: 'Risk', required: true }, items: [{ key: 'low', text: 'Low' }, { key: 'high', text: 'High' }] },
  { key: 'region', type: 'dropdown', props: { label: 'Region' }, items: [{ key: 'eu', name: 'Europe' }, { key: 'us', name: 'Americas' }] },
  {
    key: 'reviewers',
    type: 'searchable-field',
    props: { label: 'Reviewers', multiSelectResults: true, data: ['Ada', 'Grace', { value: 'linus', label: 'Linus' }], placeholderText: 'Type a name' },
  },
  { key: 'ship_date', type: 'date-picker', props: { label: 'Ship date', picker_type: 'date', required: true } },
  { key: 'summary', type: 'text-area', props: { label: 'Summary', minLength: 10, maxLength: '200', validationPattern: '[A-Z].*', validationMessage: 'Start with a capital letter', required: true } },
  { key: 'runbook', type: 'link-block', props: { url: 'https://example.com/runbook', custom_title: 'Runbook', custom_description: 'What to do when it breaks' } },
  { key: 'demo', type: 'video-external', props: { url: 'https://example.com/demo.mp4', altText: 'Release demo' } },
  { key: 'status', type: 'iframe', props: { url: 'https://example.com/status', height: 200 } },
];
