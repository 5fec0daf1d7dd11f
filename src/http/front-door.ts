/**
 * What a person's browser asks of the server's root (issue 28): `/` leads to the web app, and the icon every page
 * asks for is there (an SVG, also at `/favicon.ico`, which browsers request on their own) instead of a 404.
 */
import { Router, type Request, type Response } from 'express';

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4e79"/><path d="M10 25V7l12 6-12 6" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/></svg>`;

export function frontDoorRouter(): Router {
  const router = Router();
  router.get('/', (_req: Request, res: Response) => res.redirect(302, '/app/'));
  router.get(['/favicon.svg', '/favicon.ico'], (_req: Request, res: Response) => {
    res.set('cache-control', 'public, max-age=86400').type('image/svg+xml').send(ICON);
  });
  return router;
}
