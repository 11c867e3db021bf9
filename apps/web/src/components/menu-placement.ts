export interface MenuPlacementInput {
  /** The trigger's top and bottom edges, in viewport pixels. */
  triggerTop: number;
  triggerBottom: number;
  /** The open list's height. */
  menuHeight: number;
  viewportHeight: number;
  /** Space kept between the trigger and the list, and from the viewport's edges. */
  gap?: number;
}

/**
 * Where a menu opens: below its trigger when it fits there; above when it does not but fits
 * above; otherwise on the side with more room (the page scrolls for the rest).
 */
export function menuPlacement({ triggerTop, triggerBottom, menuHeight, viewportHeight, gap = 4 }: MenuPlacementInput): 'below' | 'above' {
  const spaceBelow = viewportHeight - triggerBottom - gap * 2;
  const spaceAbove = triggerTop - gap * 2;
  if (menuHeight <= spaceBelow) return 'below';
  if (menuHeight <= spaceAbove) return 'above';
  return spaceAbove > spaceBelow ? 'above' : 'below';
}
