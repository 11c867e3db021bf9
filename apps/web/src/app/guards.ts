import type { User } from '@palisade/contracts';
import { redirect } from '@tanstack/react-router';
import { useAuthStore } from '@/features/auth/auth-store';

/** What the login page is told: where to return after signing in, and whether the session ended on its own. */
export interface LoginSearch {
  redirect?: string;
  session?: 'ended';
}

/** Only paths inside the console are followed after sign-in (no `//host`, no loop back to login). */
export function isSafeReturnPath(path: unknown): path is string {
  return (
    typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/login') && !path.startsWith('/auth/')
  );
}

export function validateLoginSearch(search: Record<string, unknown>): LoginSearch {
  return {
    ...(isSafeReturnPath(search.redirect) ? { redirect: search.redirect } : {}),
    ...(search.session === 'ended' ? { session: 'ended' as const } : {}),
  };
}

/** The login page's search for a visitor sent away from `href`: come back there, and say why when the session ended. */
export function loginSearchFor(href: string): LoginSearch {
  return {
    ...(isSafeReturnPath(href) && href !== '/' ? { redirect: href } : {}),
    ...(useAuthStore.getState().hasSessionEnded ? { session: 'ended' as const } : {}),
  };
}

/** `beforeLoad` of the signed-in area: remember where the visitor was heading, then send them to log in. */
export function requireUser(location: { href: string }): { user: User } {
  const user = useAuthStore.getState().user;
  if (!user) {
    useAuthStore.getState().setAuthLocation(location.href);
    throw redirect({ to: '/login', search: loginSearchFor(location.href) });
  }
  return { user };
}

/** `beforeLoad` of admin screens: non-admins land on their own profile. */
export function requireAdmin(): void {
  const user = useAuthStore.getState().user;
  if (!user) throw redirect({ to: '/login' });
  if (!user.is_admin) throw redirect({ to: '/users/$username', params: { username: user.username } });
}

/** Where "home" is for this user: the user list for admins, the own profile for others. */
export function redirectHome(): never {
  const user = useAuthStore.getState().user;
  if (!user) throw redirect({ to: '/login' });
  if (user.is_admin) throw redirect({ to: '/users' });
  throw redirect({ to: '/users/$username', params: { username: user.username } });
}

/** The login page is for signed-out visitors only. */
export function redirectIfSignedIn(): void {
  if (useAuthStore.getState().user) redirectHome();
}

/** Screens about one user (their devices): admins may open anyone's, others only their own. */
export function requireSelfOrAdmin(username: string): void {
  const user = useAuthStore.getState().user;
  if (user && !user.is_admin && username !== user.username) throw redirect({ to: '/users/$username', params: { username: user.username } });
}
