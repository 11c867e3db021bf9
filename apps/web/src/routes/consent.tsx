import { createFileRoute } from '@tanstack/react-router';
import { ConsentPage } from '@/features/openid-consent/ConsentPage';

export interface ConsentSearch {
  interaction?: string;
}

export const Route = createFileRoute('/consent')({
  validateSearch: (search: Record<string, unknown>): ConsentSearch =>
    typeof search.interaction === 'string' && search.interaction !== '' ? { interaction: search.interaction } : {},
  component: ConsentPage,
});
