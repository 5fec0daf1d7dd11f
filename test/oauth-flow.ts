/**
 * What the OAuth end-to-end tests drive: an OAuthClientProvider of the SDK client kept in memory (as a
 * desktop client keeps it on disk), and a headless Chromium that signs a person in and answers the consent
 * page, catching the redirect back to the client.
 */
import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Nothing listens there: the browser's request is answered by catchRedirect (port 9 is one Chromium refuses). */
export const REDIRECT_URI = 'http://127.0.0.1:8976/callback';

export class MemoryOAuthProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly name: string) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.WAYMARK_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
}

/** The query of the redirect back to the client, caught before it leaves the browser. */
export async function catchRedirect(context: BrowserContext): Promise<() => URL | undefined> {
  let caught: URL | undefined;
  // A redirect answered at once (no consent page) is not routed, only seen: the page then fails to load it.
  context.on('request', (request) => {
    if (request.url().startsWith(REDIRECT_URI)) caught = new URL(request.url());
  });
  await context.route(`${REDIRECT_URI}**`, async (route) => {
    caught = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' });
  });
  return () => caught;
}
