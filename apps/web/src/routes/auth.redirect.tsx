import { createFileRoute } from '@tanstack/react-router';
import { RedirectPage } from '@/features/auth/RedirectPage';

export const Route = createFileRoute('/auth/redirect')({
  component: RedirectPage,
});
