/** The page a sign-in link that opened no session answers with: what happened and what to do, no scripts. */
import { brand } from '../../config.js';
import type { RedeemRefusal } from '../../services/auth/signin.service.js';

const TEXT: Record<RedeemRefusal, { title: string; body: string }> = {
  unknown: { title: 'This sign-in link is not valid', body: 'The link is incomplete or was never issued by this server. Copy the whole link, or ask your admin for a new one.' },
  used: { title: 'This sign-in link was already used', body: 'A sign-in link works once. Ask your admin for a new link.' },
  expired: { title: 'This sign-in link has expired', body: 'Sign-in links are short-lived. Ask your admin for a new link.' },
};

export function signinRefusalPage(reason: RedeemRefusal): string {
  const { title, body } = TEXT[reason];
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · ${brand}</title></head>
<body>
<main>
<h1>${title}</h1>
<p>${body}</p>
</main>
</body>
</html>
`;
}
