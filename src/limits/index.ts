/**
 * Every limit of the interface document (section Limits) and every bound of ours, gathered from one module per
 * concern beside this file. Tool schemas, services, the converter, the store, the HTTP doors and describe_platform
 * all read them from here; a limit is defined in its concern's module and nowhere else.
 */
import { BODY_LIMITS } from './body.js';
import { CONVERT_LIMITS } from './convert.js';
import { FIELD_LIMITS } from './fields.js';
import { FOLDER_LIMITS } from './folder.js';
import { HTTP_LIMITS } from './http.js';
import { INPUT_LIMITS } from './input.js';
import { LIVE_LIMITS } from './live.js';
import { PAGE_LIMITS } from './pages.js';
import { SEARCH_LIMITS } from './search.js';
import { SESSION_LIMITS } from './session.js';
import { STORE_LIMITS } from './store.js';
import { TRAIL_LIMITS } from './trails.js';
import { TRAIL_SEARCH_LIMITS } from './trail-search.js';

export { ELEMENT_KEY_PATTERN } from './body.js';

export const LIMITS = {
  ...FIELD_LIMITS,
  ...BODY_LIMITS,
  ...PAGE_LIMITS,
  ...CONVERT_LIMITS,
  ...SESSION_LIMITS,
  ...HTTP_LIMITS,
  ...INPUT_LIMITS,
  ...SEARCH_LIMITS,
  ...STORE_LIMITS,
  ...TRAIL_LIMITS,
  ...TRAIL_SEARCH_LIMITS,
  ...FOLDER_LIMITS,
  ...LIVE_LIMITS,
} as const;
