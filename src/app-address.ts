/**
 * Where a person opens the web app, and a trail's step in it: one definition for the start banner, the sign-in
 * links the CLI prints and the links in mail (issue 27). The app lives at `app/` under the public base (which
 * may carry a path, behind a proxy that serves Waymark under one); its pages are hash routes (web/router.ts), so
 * the server needs no route of its own for a step.
 */

/** The web app's address under `base` (WAYMARK_PUBLIC_URL, else the address the server listens on). */
export function webAppUrl(base: URL): URL {
  return new URL('app/', base.href.endsWith('/') ? base : `${base.href}/`);
}

/** The page where a person answers the trail's current step (web/app.tsx, `/trails/:trail_id/step`). */
export function trailStepUrl(app: URL, trailId: string): string {
  return `${app.href}#/trails/${encodeURIComponent(trailId)}/step`;
}

/** The trail's page: its steps, answers and history (web/app.tsx, `/trails/:trail_id`). */
export function trailUrl(app: URL, trailId: string): string {
  return `${app.href}#/trails/${encodeURIComponent(trailId)}`;
}
