/** date-picker: a date, a time, or both; the answer's format follows picker_type (CONTRACT.md, "Answer values"). */
import { z } from 'zod';
import { accepted, refused, type ElementDefinition } from './types.js';

const DATE = '(\\d{4})-(\\d{2})-(\\d{2})';
const TIME = '([01]\\d|2[0-3]):([0-5]\\d)';
const SECONDS = ':([0-5]\\d)';

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date part exists in the calendar (2024-02-29 does, 2023-02-29 does not). */
function realDate(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(Number(year), m);
}

export function dateAnswerFormat(pickerType: string, seconds: boolean): { pattern: RegExp; shape: string } {
  const s = seconds ? SECONDS : '';
  const ss = seconds ? ':ss' : '';
  if (pickerType === 'time') return { pattern: new RegExp(`^${TIME}${s}$`), shape: `HH:mm${ss}` };
  if (pickerType === 'datetime-local') {
    return { pattern: new RegExp(`^${DATE}T${TIME}${s}$`), shape: `YYYY-MM-DDTHH:mm${ss}` };
  }
  return { pattern: new RegExp(`^${DATE}$`), shape: 'YYYY-MM-DD' };
}

export const datePicker: ElementDefinition = {
  type: 'date-picker',
  stepType: 'DatePicker',
  summary: 'a date, time, or both',
  hasLabel: true,
  placement: 'block',
  answered: 'element',
  control: 'date',
  props: z.strictObject({
    default_to_now: z.boolean().optional(),
    label: z.string().optional(),
    picker_type: z.enum(['date', 'time', 'datetime-local']).optional(),
    required: z.boolean().optional(),
    seconds_precision: z.boolean().optional(),
  }),
  urlProps: [],
  answer: z.string(),
  answerRule:
    'date: YYYY-MM-DD; time: HH:mm (HH:mm:ss with seconds_precision); datetime-local: YYYY-MM-DDTHH:mm (:ss with seconds_precision), no offset; the date must exist',
  checkAnswer(value, element) {
    const pickerType = typeof element.props.picker_type === 'string' ? element.props.picker_type : 'date';
    const { pattern, shape } = dateAnswerFormat(pickerType, element.props.seconds_precision === true);
    if (typeof value !== 'string') return refused(`must be a string ${shape}`);
    const m = pattern.exec(value);
    if (!m) return refused(`must be ${shape} (picker_type ${pickerType})`);
    if (pickerType !== 'time' && !realDate(m[1], m[2], m[3])) return refused(`${value} is not a date in the calendar`);
    return accepted(value);
  },
  formQuestion(props, title) {
    const pickerType = typeof props.picker_type === 'string' ? props.picker_type : 'date';
    // A date has the profile's own format; a time or a local date-time (no offset) is text the answer check reads.
    if (pickerType === 'date') return { kind: 'text', schema: { type: 'string', title, format: 'date' } };
    return { kind: 'text', schema: { type: 'string', title, description: dateAnswerFormat(pickerType, props.seconds_precision === true).shape } };
  },
};
