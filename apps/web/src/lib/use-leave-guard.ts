import { useBlocker } from '@tanstack/react-router';
import { useCallback, useRef } from 'react';

/**
 * While `when` is true, leaving the page asks first: a link, the sidebar or Back shows the
 * browser's own confirmation with `message` (native, so keyboard and screen readers handle it,
 * and nothing has to be rendered); reloading or closing the tab gets the browser's
 * "leave site?" prompt (browsers do not show custom text there).
 *
 * A navigation the page itself starts once the work is safe (after saving, "Finish") passes
 * `ignoreBlocker: true` to `navigate`, since `when` only turns false on the next render.
 */
export function useLeaveGuard(when: boolean, message: string): void {
  const messageRef = useRef(message);
  messageRef.current = message;
  // Stable, so the router does not re-register the blocker on every render.
  const shouldBlockFn = useCallback(() => !window.confirm(messageRef.current), []);
  useBlocker({ shouldBlockFn, enableBeforeUnload: true, disabled: !when });
}

/** A form's values differ from the ones it was loaded or last saved with (plain data only). */
export const hasChanges = (values: object, baseline: object): boolean => JSON.stringify(values) !== JSON.stringify(baseline);
