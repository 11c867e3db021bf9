import { createFileRoute } from '@tanstack/react-router';
import { requireSelfOrAdmin } from '@/app/guards';
import { AddDeviceWizardPage } from '@/features/devices/AddDeviceWizardPage';

export const Route = createFileRoute('/_authed/users/$username_/add-device')({
  beforeLoad: ({ params }) => requireSelfOrAdmin(params.username),
  component: AddDeviceWizardPage,
});
