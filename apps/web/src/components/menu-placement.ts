export interface MenuPlacementInput {
  /** The trigger's top and bottom edges, in viewport pixels. */
  triggerTop: number;
  triggerBottom: number;
  /** The open list's height. */
  menuHeight: number;
  viewportHeight: number;
  /**
   * How far the page is scrolled down (`window.scrollY`): a list opening above can reach no higher
   * than the top of the page, so the room above in the page is `triggerTop + scrollTop`.
   */
  scrollTop?: number;
  /** Space kept between the trigger and the list, and from the viewport's edges. */
  gap?: number;
}

/**
 * Where a menu opens: below its trigger when it fits there; above when it does not but fits
 * above; otherwise on the side with more room in the window — but never above when the page has
 * no room for it there (near the top of the page the part above would be cut off for good, while
 * below the page scrolls to show the rest).
 */
export function menuPlacement({
  triggerTop,
  triggerBottom,
  menuHeight,
  viewportHeight,
  scrollTop = 0,
  gap = 4,
}: MenuPlacementInput): 'below' | 'above' {
  const spaceBelow = viewportHeight - triggerBottom - gap * 2;
  const spaceAbove = triggerTop - gap * 2;
  if (menuHeight <= spaceBelow) return 'below';
  if (menuHeight <= spaceAbove) return 'above';
  if (menuHeight > spaceAbove + scrollTop) return 'below';
  return spaceAbove > spaceBelow ? 'above' : 'below';
}
