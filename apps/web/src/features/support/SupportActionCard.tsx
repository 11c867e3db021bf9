import type { ReactNode } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';

interface SupportActionCardProps {
  title: string;
  description: ReactNode;
  actionLabel: string;
  onAction: () => void;
  isPending: boolean;
  isDisabled?: boolean;
  /** The last failure of the action, shown until it is tried again. */
  error?: string | undefined;
}

/** One action of the Support page: what it does, its button and its last error. */
export function SupportActionCard({
  title,
  description,
  actionLabel,
  onAction,
  isPending,
  isDisabled = false,
  error,
}: SupportActionCardProps) {
  return (
    <section className="card" aria-label={title}>
      <div className="card__header">
        <h2 className="card__title">{title}</h2>
      </div>
      <div className="card__body support-card__body">
        <div className="field__hint">{description}</div>
        <FormErrorBanner>{error}</FormErrorBanner>
        <div>
          <Button variant="primary" onClick={onAction} isLoading={isPending} disabled={isDisabled}>
            {actionLabel}
          </Button>
        </div>
      </div>
    </section>
  );
}
