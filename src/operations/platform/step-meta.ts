/**
 * The names the step form app and the server share (issue 14), in a module with no imports so the app's
 * bundle can take them: the resource's uri and the result `_meta` key the step payload travels under.
 */
export const STEP_APP_URI = 'ui://waymark/step';

/** The key of a tool result's `_meta` that holds the step payload for the app (not for the model). */
export const STEP_PAYLOAD_META_KEY = 'waymark/step';
