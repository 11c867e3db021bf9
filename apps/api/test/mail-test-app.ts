import { afterAll, beforeAll, beforeEach } from 'vitest';
import { useSmtp } from '#src/modules/enrollment/enrollment.test-support.js';
import { createTestApp, resetDatabase, type TestApp } from './helpers.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.js';

/** What a mail test file shares: filled in by the hooks `useMailTestApp` registers, read inside tests. */
export interface MailTestApp {
  t: TestApp;
  /** The real SMTP server the app sends to once `useSmtp()` ran; emptied before each test. */
  smtp: TestSmtpServer;
  /** The admin's session, signed in again on each test's fresh database. */
  admin: string;
  /** Points the settings at `smtp` (mail stays off until a test does). */
  useSmtp(): Promise<void>;
}

/**
 * One app with links under `PUBLIC_URL` and one SMTP server for the test file, a fresh database and
 * admin session for each test. Call it in a `describe` (it registers that block's hooks). `jobs`
 * runs the background jobs: the mail job sends what the routes queue ("Forgot password?").
 */
export function useMailTestApp(options: { jobs?: boolean; env?: Record<string, string> } = {}): MailTestApp {
  const context = {
    useSmtp: () => useSmtp(context.t, context.admin, context.smtp),
  } as MailTestApp;
  beforeAll(async () => {
    context.t = await createTestApp({ PUBLIC_URL: 'https://vpn.example.com', ...options.env }, options.jobs ? { jobs: true } : {});
    context.smtp = await startSmtpServer();
  });
  beforeEach(async () => {
    await resetDatabase(context.t.database);
    context.smtp.received.length = 0;
    context.admin = await context.t.loginAdmin();
  });
  afterAll(async () => {
    await context.smtp?.close();
    await context.t?.close();
  });
  return context;
}
