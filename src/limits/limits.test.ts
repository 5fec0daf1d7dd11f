import { describe, expect, it } from 'vitest';
import { BODY_LIMITS } from './body.js';
import { CONVERT_LIMITS } from './convert.js';
import { FIELD_LIMITS } from './fields.js';
import { FOLDER_LIMITS } from './folder.js';
import { HTTP_LIMITS } from './http.js';
import { INPUT_LIMITS } from './input.js';
import { LIMITS } from './index.js';
import { LIVE_LIMITS } from './live.js';
import { PAGE_LIMITS } from './pages.js';
import { SEARCH_LIMITS } from './search.js';
import { SESSION_LIMITS } from './session.js';
import { STORE_LIMITS } from './store.js';
import { TRAIL_LIMITS } from './trails.js';
import { TRAIL_SEARCH_LIMITS } from './trail-search.js';

const CONCERNS = [BODY_LIMITS, CONVERT_LIMITS, FIELD_LIMITS, FOLDER_LIMITS, HTTP_LIMITS, INPUT_LIMITS, LIVE_LIMITS, PAGE_LIMITS, SEARCH_LIMITS, SESSION_LIMITS, STORE_LIMITS, TRAIL_LIMITS, TRAIL_SEARCH_LIMITS];

describe('LIMITS', () => {
  it('gathers every concern, each limit defined in one of them only (a spread would hide a second definition)', () => {
    const names = CONCERNS.flatMap((c) => Object.keys(c));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(LIMITS).sort()).toEqual(names.sort());
  });
});
