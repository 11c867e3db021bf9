import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/app/guards';

export const Route = createFileRoute('/_authed/_admin')({
  beforeLoad: requireAdmin,
});
