import { createFileRoute } from '@tanstack/react-router';
import { ActivityStreamPage } from '@/features/activity-log/ActivityStreamPage';

export const Route = createFileRoute('/_authed/activity-log/live')({
  component: ActivityStreamPage,
});
