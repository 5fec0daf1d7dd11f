import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.js';

describe('redactUrl', () => {
  it('hides the password of the user part', () => {
    expect(redactUrl('postgres://bob:s3cr%40t@db.example:5432/waymark')).toBe('postgres://bob:***@db.example:5432/waymark');
  });

  it('hides password parameters, whatever their case, and keeps the others', () => {
    expect(redactUrl('postgresql://db/waymark?user=bob&PassWord=hunter2&sslmode=require&sslpassword=x')).toBe(
      'postgresql://db/waymark?user=bob&PassWord=***&sslmode=require&sslpassword=***',
    );
  });

  it('leaves a URL without secrets as it is', () => {
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/test')).toBe('postgres://postgres@127.0.0.1:5432/test');
  });

  it('shows only the scheme of what it cannot parse', () => {
    expect(redactUrl('postgres://bob:pw@[broken/x?password=y')).toBe('postgres:…');
  });
});
