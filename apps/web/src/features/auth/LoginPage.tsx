import type { MfaRequired } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { Logo } from '@/components/Logo';
import { ThemeToggle } from '@/components/ThemeToggle';
import { essentialsQueryOptions } from '@/features/app/app.queries';
import { LoginForm } from './LoginForm';
import { MfaStep } from './MfaStep';
import './auth.css';

export function LoginPage() {
  const { data: settings } = useQuery(essentialsQueryOptions);
  const [mfa, setMfa] = useState<MfaRequired['mfa'] | undefined>(undefined);
  const instance = settings?.instance_name || 'Palisade';
  return (
    <div className="auth-page">
      <div className="auth-page__tools">
        <LanguageSwitcher className="login" />
        <ThemeToggle />
      </div>
      <main className="auth-card" id="main">
        <div className="auth-card__brand">
          <Logo size={44} src={settings?.main_logo_url || undefined} alt={instance} />
          <span className="auth-card__instance">{instance}</span>
        </div>
        {mfa ? <MfaStep mfa={mfa} onBack={() => setMfa(undefined)} /> : <LoginForm instance={instance} onMfaRequired={setMfa} />}
      </main>
    </div>
  );
}
