import { createFileRoute } from '@tanstack/react-router';
import { redirectIfSignedIn } from '@/app/guards';
import { LoginPage } from '@/features/auth/LoginPage';

export const Route = createFileRoute('/login')({
  beforeLoad: redirectIfSignedIn,
  component: LoginPage,
});
