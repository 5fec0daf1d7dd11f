/**
 * An embedded page of the page's own origin never gets both allow-scripts and allow-same-origin (issue 24,
 * finding 10): with the pair it could lift its own sandbox and act as the person.
 */
import { describe, expect, test } from 'vitest';
import { frameSandbox } from '../../web/step-form/embed.js';

const PAGE = 'https://waymark.example';

describe('frameSandbox', () => {
  test('a frame of the page’s own origin runs as an opaque origin', () => {
    for (const url of ['https://waymark.example/app/', 'https://WAYMARK.example:443/api/v1/me', 'https://waymark.example/#x']) {
      expect(frameSandbox(url, PAGE), url).toBe('allow-scripts allow-forms allow-popups');
    }
  });

  test('a frame of another origin keeps its own origin', () => {
    for (const url of ['https://docs.example.com/form', 'http://waymark.example/', 'https://waymark.example:8443/', 'https://sub.waymark.example/']) {
      expect(frameSandbox(url, PAGE), url).toBe('allow-scripts allow-same-origin allow-forms allow-popups');
    }
  });

  test('an opaque page origin ("null", as in a srcdoc frame) matches no address', () => {
    expect(frameSandbox('https://waymark.example/', 'null')).toBe('allow-scripts allow-same-origin allow-forms allow-popups');
  });
});
