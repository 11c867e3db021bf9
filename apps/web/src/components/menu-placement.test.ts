import { describe, expect, it } from 'vitest';
import { menuPlacement } from './menu-placement';

describe('menuPlacement', () => {
  it('opens below the trigger when the list fits under it', () => {
    expect(menuPlacement({ triggerTop: 100, triggerBottom: 132, menuHeight: 150, viewportHeight: 800 })).toBe('below');
  });

  it('flips up near the bottom of the viewport', () => {
    expect(menuPlacement({ triggerTop: 700, triggerBottom: 732, menuHeight: 150, viewportHeight: 800 })).toBe('above');
  });

  it('counts the gap: a list that would touch the bottom edge flips', () => {
    // 800 - 640 - 2 × 4 = 152 px below.
    expect(menuPlacement({ triggerTop: 600, triggerBottom: 640, menuHeight: 152, viewportHeight: 800 })).toBe('below');
    expect(menuPlacement({ triggerTop: 600, triggerBottom: 640, menuHeight: 153, viewportHeight: 800 })).toBe('above');
  });

  it('fitting nowhere, takes the roomier side', () => {
    expect(menuPlacement({ triggerTop: 300, triggerBottom: 330, menuHeight: 500, viewportHeight: 500, scrollTop: 400 })).toBe('above');
    expect(menuPlacement({ triggerTop: 150, triggerBottom: 180, menuHeight: 500, viewportHeight: 500, scrollTop: 400 })).toBe('below');
  });

  it('fitting nowhere, never opens above where the top of the page would cut it off', () => {
    // The first rows of a list on a short window: more room above in the window (232 px against
    // 220 px), but the page ends right above it, so an upward list would lose its top items for good.
    expect(menuPlacement({ triggerTop: 240, triggerBottom: 272, menuHeight: 250, viewportHeight: 500, scrollTop: 0 })).toBe('below');
    // Scrolled down, the page has room above: the roomier side again.
    expect(menuPlacement({ triggerTop: 240, triggerBottom: 272, menuHeight: 250, viewportHeight: 500, scrollTop: 100 })).toBe('above');
  });
});
