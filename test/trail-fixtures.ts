/**
 * Slate blocks of every element type, in content/slate.ts's shapes, for trail tests that build bits
 * straight in the store (the authoring tools have their own tests).
 */
const leaf = () => [{ text: '' }];

export const p = (text: string) => ({ type: 'p', children: [{ text }] });

export function textArea(id: string, props: Record<string, unknown> = {}) {
  return { type: 'text-area', id, props: { label: 'Notes', ...props }, children: leaf() };
}
export function datePicker(id: string, props: Record<string, unknown> = {}) {
  return { type: 'date-picker', id, props: { label: 'When', ...props }, children: leaf() };
}
export function dropdown(id: string, options: string[], props: Record<string, unknown> = {}) {
  return { type: 'dropdown', id, props: { label: 'Pick', ...props }, items: options.map((o) => ({ id: o, name: `Option ${o}`, value: o })), children: leaf() };
}
export function radio(id: string, options: string[], props: Record<string, unknown> = {}) {
  return { type: 'radio-button', id, props: { label: 'Choose', ...props }, items: options.map((o) => ({ id: o, text: `Radio ${o}`, checked: false })), children: leaf() };
}
export function checkList(id: string, items: Array<{ id: string; required?: boolean; checked?: boolean }>) {
  return { type: 'check-list', id, props: { label: 'Tasks' }, items: items.map((i) => ({ id: i.id, text: `Task ${i.id}`, checked: i.checked ?? false, required: i.required ?? false })), children: leaf() };
}
export function searchable(id: string, data: unknown[], props: Record<string, unknown> = {}) {
  return { type: 'searchable-field', id, props: { label: 'Find', data, ...props }, children: leaf() };
}
export function linkBlock(id: string, url: string) {
  return { type: 'link-block', id, props: { url }, children: leaf() };
}
export function linkInlineParagraph(id: string, url: string) {
  return { type: 'p', children: [{ text: 'Read ' }, { type: 'link-inline', id, props: { url }, children: [{ text: 'the guide' }] }, { text: ' first.' }] };
}
export function video(id: string, url: string) {
  return { type: 'video-external', id, props: { url }, children: leaf() };
}
export function iframe(id: string, url: string) {
  return { type: 'iframe', id, props: { url }, children: leaf() };
}
