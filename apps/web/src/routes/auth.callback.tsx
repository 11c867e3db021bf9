import { createFileRoute } from '@tanstack/react-router';
import { type ExternalCallbackSearch, ExternalCallbackPage } from '@/features/auth/ExternalCallbackPage';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= 4096 ? value : undefined);

function CallbackRoute() {
  return <ExternalCallbackPage search={Route.useSearch()} />;
}

/** The external OpenID provider's redirect URL (register `<public URL>/auth/callback` there). */
export const Route = createFileRoute('/auth/callback')({
  validateSearch: (search: Record<string, unknown>): ExternalCallbackSearch => ({
    code: text(search.code),
    state: text(search.state),
    iss: text(search.iss),
    error: text(search.error),
    error_description: text(search.error_description),
  }),
  component: CallbackRoute,
});
