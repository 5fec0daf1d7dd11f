/**
 * The web app's files (issue 11) at /app: the front end's build in dist/web (WAYMARK_WEB_ROOT moves it),
 * index.html for every client route, hashed file names cached for good, and a Content-Security-Policy that
 * allows no inline script. Without a session the app itself shows the sign-in page: /api/v1 answers it 401.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import express, { Router, type Response } from 'express';
import { brand, webRoot } from '../config.js';
import { SAFE_SCHEMES } from '../content/url.js';

/** Build output names carry a content hash (`index-3FJ2KQ7A.js`): such a file never changes, so it is cached for a year. */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.(?:js|css|woff2?|svg|png|jpg|webp|map)$/;

/** Embeds and images come from the url schemes the store accepts in bodies (content/url.ts), mailto aside. */
const EMBED_SOURCES = SAFE_SCHEMES.filter((s) => s !== 'mailto').map((s) => `${s}:`).join(' ');

/**
 * Scripts only from this origin, never inline. Inline styles are allowed: the flow picture's SVG (mermaid)
 * carries its own <style>, and a style cannot run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: ${EMBED_SOURCES}`,
  `media-src 'self' ${EMBED_SOURCES}`,
  `frame-src ${EMBED_SOURCES}`,
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function defaultWebRoot(): string {
  return webRoot();
}

const secure = (res: Response) => {
  res.set({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' });
};

export function webAppRouter(root: string = defaultWebRoot()): Router {
  const router = Router();
  const dir = resolve(root);
  const index = resolve(dir, 'index.html');
  router.use((_req, res, next) => {
    secure(res);
    next();
  });
  router.use(
    express.static(dir, {
      index: false,
      redirect: false,
      setHeaders: (res, path) => res.setHeader('Cache-Control', HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    }),
  );
  // A client route (/app, /app/trails/…): the app's page, which reads the route itself.
  router.get(/.*/, (req, res) => {
    // A missing asset is a 404, not the page in its place.
    if (/\.[A-Za-z0-9]+$/.test(req.path)) {
      res.status(404).type('text').send('Not found');
      return;
    }
    if (!existsSync(index)) {
      res.status(503).type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${brand}</title></head><body><main><h1>The web app is not built</h1><p>Run <code>npm run build:web</code> (npm ci does it), or set WAYMARK_WEB_ROOT.</p></main></body></html>`);
      return;
    }
    res.set('Cache-Control', 'no-cache').sendFile(index);
  });
  return router;
}
