import { describe, expect, it } from 'vitest';
import { viewerZoneOf } from './viewer-zone';

describe('the viewer zone', () => {
  it('is the zone the user chose, whatever the browser says', () => {
    expect(viewerZoneOf('Asia/Tokyo', 'Europe/Paris', 'UTC')).toBe('Asia/Tokyo');
  });

  it("is the browser's zone when the user left it automatic, or is a visitor", () => {
    expect(viewerZoneOf('auto', 'America/New_York', 'Europe/Paris')).toBe('America/New_York');
    expect(viewerZoneOf(null, 'America/New_York', 'Europe/Paris')).toBe('America/New_York');
  });

  it("is the spec's zone until the browser has said its own", () => {
    expect(viewerZoneOf('auto', undefined, 'Europe/Paris')).toBe('Europe/Paris');
  });

  it('ignores a browser zone Intl does not know (the cookie is anyone\u2019s to write)', () => {
    expect(viewerZoneOf('auto', 'Mars/Olympus', 'Europe/Paris')).toBe('Europe/Paris');
    expect(viewerZoneOf(null, '<script>', 'UTC')).toBe('UTC');
  });

  it('ignores a stored choice Intl no longer knows', () => {
    expect(viewerZoneOf('Europe/Atlantis', 'Asia/Tokyo', 'UTC')).toBe('Asia/Tokyo');
  });
});
