import type { Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';
import { initialSchema } from './001-initial.js';
import { referenceSearch } from './002-reference-search.js';
import { trailStepActors } from './003-trail-step-actors.js';
import { trailEvents } from './004-trail-events.js';
import { searchFoldDiacritics } from './005-search-fold-diacritics.js';
import { lowerTextFunction } from './006-lower-text.js';
import { searchWindow } from './007-search-window.js';
import { trailBounds } from './008-trail-bounds.js';
import { tokenRevocation } from './009-token-revocation.js';
import { signinSessions } from './010-signin-sessions.js';
import { oauthRecords } from './011-oauth.js';
import { duplicateStepIndex } from './012-duplicate-step-index.js';
import { events } from './013-events.js';
import { revisions } from './014-revisions.js';
import { trailReads } from './015-trail-reads.js';
import { webhooks } from './016-webhooks.js';
import { teamRuns } from './017-team-runs.js';
import { scaleStorage } from './018-scale-storage.js';
import { personMaximum } from './019-person-maximum.js';

/** Versioned migrations, applied in name order at start and by `waymark migrate`. */
export function migrations(dialect: MigrationTarget): Record<string, Migration> {
  return {
    '001-initial': initialSchema(dialect),
    '002-reference-search': referenceSearch(dialect),
    '003-trail-step-actors': trailStepActors(),
    '004-trail-events': trailEvents(dialect),
    '005-search-fold-diacritics': searchFoldDiacritics(dialect),
    '006-lower-text': lowerTextFunction(dialect),
    '007-search-window': searchWindow(dialect),
    '008-trail-bounds': trailBounds(dialect),
    '009-token-revocation': tokenRevocation(),
    '010-signin-sessions': signinSessions(),
    '011-oauth': oauthRecords(dialect),
    '012-duplicate-step-index': duplicateStepIndex(),
    '013-events': events(),
    '014-revisions': revisions(dialect),
    '015-trail-reads': trailReads(dialect),
    '016-webhooks': webhooks(),
    '017-team-runs': teamRuns(dialect),
    '018-scale-storage': scaleStorage(dialect),
    '019-person-maximum': personMaximum(),
  };
}
