import { createFileRoute } from '@tanstack/react-router';
import { PasswordResetPage } from '@/features/enrollment/PasswordResetPage';
import { validateTokenSearch } from '@/features/enrollment/token-search';

export const Route = createFileRoute('/password-reset')({
  validateSearch: validateTokenSearch,
  component: PasswordResetPage,
});
