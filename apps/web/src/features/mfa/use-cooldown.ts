import { useCallback, useEffect, useState } from 'react';

/** Seconds left before an action may repeat (the email code resend waits 30 s); `start()` begins a wait. */
export function useCooldown(seconds: number) {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 250);
    return () => clearTimeout(timer);
  }, [until, now]);
  const start = useCallback(() => {
    const at = Date.now();
    setNow(at);
    setUntil(at + seconds * 1000);
  }, [seconds]);
  return { left: Math.max(0, Math.ceil((until - now) / 1000)), start };
}
