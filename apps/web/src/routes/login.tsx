import { createFileRoute } from '@tanstack/react-router';
import { redirectIfSignedIn, validateLoginSearch } from '@/app/guards';
import { LoginPage } from '@/features/auth/LoginPage';

export const Route = createFileRoute('/login')({
  validateSearch: validateLoginSearch,
  beforeLoad: redirectIfSignedIn,
  component: LoginPage,
});
