import { createFileRoute } from '@tanstack/react-router';
import { EnrollmentPage } from '@/features/enrollment/EnrollmentPage';
import { validateTokenSearch } from '@/features/enrollment/token-search';

export const Route = createFileRoute('/enrollment')({
  validateSearch: validateTokenSearch,
  component: EnrollmentPage,
});
