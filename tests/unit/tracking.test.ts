import { describe, expect, it } from 'vitest';
import { trackingAllowed } from '../../src/lib/tracking';

describe('trackingAllowed', () => {
  it('honours Global Privacy Control and Do Not Track, wherever the browser puts the signal', () => {
    expect(trackingAllowed({}, {})).toBe(true);
    expect(trackingAllowed({ globalPrivacyControl: false, doNotTrack: '0' }, {})).toBe(true);
    expect(trackingAllowed({ doNotTrack: 'unspecified' }, { doNotTrack: null })).toBe(true);
    expect(trackingAllowed({ globalPrivacyControl: true }, {})).toBe(false);
    expect(trackingAllowed({ doNotTrack: '1' }, {})).toBe(false);
    // Old Firefox said 'yes'; old Edge and Safari put the signal on window.
    expect(trackingAllowed({ doNotTrack: 'yes' }, {})).toBe(false);
    expect(trackingAllowed({}, { doNotTrack: '1' })).toBe(false);
  });

  it('stops in a browser whose person withdrew their consent in "Your data"', () => {
    expect(trackingAllowed({}, {}, 'LANG=en; portal_no_tracking=1')).toBe(false);
    expect(trackingAllowed({}, {}, 'LANG=en; portal_no_tracking=0')).toBe(true);
  });
});
