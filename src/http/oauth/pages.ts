/**
 * The authorization server's pages, rendered on the server: no scripts at all (the CSP in consent.ts
 * forbids them), every value escaped, every control labelled. The consent page is the one a person reads
 * before a client may act as them, so it names the client, where the answer goes and what is asked.
 */
import { productName, type CapabilityKind, CAPABILITY_KINDS, capabilityName } from '../../config.js';
import type { GrantView, OwnTokenView } from '../../services/auth/shapes.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** What each capability lets a client do, in the words of CONTRACT.md ("Accounts, scopes, permissions, capabilities"). */
const CAPABILITY_TEXT: Record<CapabilityKind, string> = {
  read: 'Read your bits, flows, references and trails',
  author: 'Create and change bits, flows and references',
  run: 'Start trails and answer, advance or hand over their steps',
};

export function capabilityText(name: string): string {
  const kind = CAPABILITY_KINDS.find((k) => capabilityName(k) === name);
  return kind ? CAPABILITY_TEXT[kind] : name;
}

/** The primary action (Allow) is filled; the other (Deny, Disconnect) is outlined, so the two never look alike. */
const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
header{margin-bottom:1.5rem}header a{color:#1f4e79}
fieldset{border:1px solid #767676;padding:1rem}label{display:block;margin:.25rem 0}
button{font:inherit;padding:.5rem 1rem;margin-right:.5rem;border-radius:4px;border:2px solid #1f4e79;background:#fff;color:#1f4e79;cursor:pointer}
button.primary{background:#1f4e79;color:#fff}a.button{display:inline-block;padding:.5rem 1rem;border:2px solid #1f4e79;border-radius:4px;color:#1f4e79;text-decoration:none}button:focus-visible{outline:3px solid #d97706;outline-offset:2px}
code{word-break:break-all}small{color:#4a4a4a}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #ccc}ul.may{margin:0;padding-left:1rem}`;

/** `back`: the header's way back to the web app, on the pages a signed-in person reaches from it. */
function page(title: string, body: string, back = false): string {
  const header = back ? `<header><a href="/app/">← Back to ${escapeHtml(productName)}</a></header>\n` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(productName)}</title><style>${STYLE}</style></head>
<body>${header}<main>
${body}
</main></body></html>`;
}

/** A time as a person reads it, in UTC (the page runs no script to show their own zone). */
function when(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}

export interface ConsentView {
  uid: string;
  clientName: string;
  clientId: string;
  redirectHost: string;
  personName: string;
  /** What the person may grant of what the client asks: offered, ticked. */
  capabilities: string[];
  /** What the client asks beyond the person's bound (their sign-in, their permission): shown, never offered. */
  unavailable: string[];
}

export function renderConsentPage(view: ConsentView): string {
  const boxes = view.capabilities
    .map(
      (name, i) =>
        `<label for="cap-${i}"><input type="checkbox" id="cap-${i}" name="capability" value="${escapeHtml(name)}" checked> ${escapeHtml(capabilityText(name))} (<code>${escapeHtml(name)}</code>)</label>`,
    )
    .join('\n');
  const offered = boxes === '' ? '<p>Nothing: you may not give it any of what it asks.</p>' : boxes;
  const unavailable = view.unavailable.length
    ? `<p>Not available, so not granted (beyond what your sign-in, your permission or your admin allows you):</p>
<ul>${view.unavailable.map((name) => `<li>${escapeHtml(capabilityText(name))} (<code>${escapeHtml(name)}</code>)</li>`).join('')}</ul>`
    : '';
  return page(
    `Allow ${view.clientName}?`,
    `<h1>Allow ${escapeHtml(view.clientName)} to use ${escapeHtml(productName)} as you?</h1>
<p>You are signed in as <strong>${escapeHtml(view.personName)}</strong>.</p>
<p><strong>${escapeHtml(view.clientName)}</strong> (client <code>${escapeHtml(view.clientId)}</code>) asks for access.
If you allow it, your answer goes back to <strong>${escapeHtml(view.redirectHost)}</strong>.</p>
<form method="post" action="/oauth/interaction/${escapeHtml(view.uid)}/confirm">
<fieldset><legend>What it may do (untick what it should not)</legend>
${offered}
</fieldset>
${unavailable}
<p>It never gets more than your own permission lets you do. You can revoke it at any time on the <a href="/oauth/grants">connected apps</a> page.</p>
<button type="submit" class="primary">Allow</button>
<button type="submit" formaction="/oauth/interaction/${escapeHtml(view.uid)}/abort">Deny</button>
</form>`,
  );
}

export function renderSignInNeededPage(uid: string, clientName: string): string {
  return page(
    'Sign in first',
    `<h1>Sign in to ${escapeHtml(productName)} first</h1>
<p><strong>${escapeHtml(clientName)}</strong> asks to use ${escapeHtml(productName)} as you, and you are not signed in in this browser.</p>
<p>Open the sign-in link you were given (ask your ${escapeHtml(productName)} administrator for one), then come back to this page:</p>
<p><a href="/oauth/interaction/${escapeHtml(uid)}">Continue to ${escapeHtml(clientName)}'s request</a></p>`,
  );
}

export function renderErrorPage(error: string, description: string): string {
  return page('Sign-in refused', `<h1>The sign-in was refused</h1>\n<p><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>\n<p>Start again from your app.</p>`);
}

export function renderGrantsPage(personName: string, grants: GrantView[], tokens: OwnTokenView[]): string {
  const rows = grants
    .map((g) => {
      const name = g.client_name ?? g.client_id;
      return `<tr><th scope="row">${escapeHtml(name)}<br><small>client <code>${escapeHtml(g.client_id)}</code></small></th><td>${escapeHtml(g.redirect_hosts.join(', '))}</td>
<td><ul class="may">${g.capabilities.map((c) => `<li>${escapeHtml(capabilityText(c))}</li>`).join('')}</ul></td><td>${when(g.created_at)}</td><td>${when(g.last_used_at)}</td>
<td><a class="button" href="/oauth/grants/${escapeHtml(g.grant_id)}/revoke" aria-label="Disconnect ${escapeHtml(name)}">Disconnect</a></td></tr>`;
    })
    .join('\n');
  const table = grants.length
    ? `<table><caption>Apps that may act as ${escapeHtml(personName)}</caption><thead><tr><th scope="col">App</th><th scope="col">Answers go to</th><th scope="col">May</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col">Disconnect</th></tr></thead><tbody>
${rows}
</tbody></table>`
    : '<p>No app is connected as you.</p>';
  const tokenRows = tokens
    .map(
      (t) => `<tr><td><code>${escapeHtml(t.token_id.slice(0, 8))}</code></td><td>${capabilityList(t.capabilities)}</td><td>${escapeHtml(t.created_at.slice(0, 10))}</td><td>${escapeHtml(t.expires_at?.slice(0, 10) ?? 'never')}</td>
<td><a class="button" href="/oauth/tokens/${escapeHtml(t.token_id)}/revoke" aria-label="Revoke token ${escapeHtml(t.token_id.slice(0, 8))}">Revoke</a></td></tr>`,
    )
    .join('\n');
  const tokenTable = tokens.length
    ? `<table><caption>API tokens of ${escapeHtml(personName)}</caption><thead><tr><th scope="col">Token</th><th scope="col">May</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Revoke</th></tr></thead><tbody>
${tokenRows}
</tbody></table>`
    : '<p>You have no API tokens.</p>';
  return page(
    'Connected apps',
    `<h1>Connected apps</h1>\n<p>Disconnecting an app ends its access at once; it asks you again if it wants back in.</p>\n${table}\n<h2>API tokens</h2>\n<p>API tokens your admin made for you act as you in MCP clients configured with one.</p>\n${tokenTable}`,
    true,
  );
}

/**
 * The question before a revocation (issue 28: revoking a connected app took effect at once, with no way back): what
 * ends, and two answers; the page runs no script, so the question is a page of its own.
 */
export function renderRevokeConfirmPage(view: { title: string; text: string; action: string; button: string }): string {
  return page(
    view.title,
    `<h1>${escapeHtml(view.title)}</h1>
<p>${escapeHtml(view.text)}</p>
<form method="post" action="${escapeHtml(view.action)}">
<button type="submit" class="primary">${escapeHtml(view.button)}</button>
<a class="button" href="/oauth/grants">Keep it</a>
</form>`,
    true,
  );
}

function capabilityList(capabilities: string[]): string {
  return capabilities.map((c) => `<code>${escapeHtml(c)}</code>`).join(' ');
}
