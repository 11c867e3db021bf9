import { createFileRoute } from '@tanstack/react-router';
import { requireUser } from '@/app/guards';
import { AppShell } from '@/features/shell/AppShell';

export const Route = createFileRoute('/_authed')({
  beforeLoad: ({ location }) => requireUser(location),
  component: AppShell,
});
