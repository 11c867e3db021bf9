import { Outlet } from '@tanstack/react-router';
import { Toaster } from '@/components/Toaster';
import { usePageTitle } from './use-page-title';

export function RootLayout() {
  usePageTitle();
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
