import { createFileRoute } from '@tanstack/react-router';
import { redirectHome } from '@/app/guards';

export const Route = createFileRoute('/_authed/')({
  beforeLoad: redirectHome,
});
