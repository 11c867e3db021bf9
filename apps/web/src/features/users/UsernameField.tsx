import { isReservedUsername, usernameSchema } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssue } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usernameAvailableQueryOptions } from './users.queries';

interface UsernameFieldProps {
  value: string;
  onValueChange: (value: string) => void;
  error: FieldIssue | undefined;
  className?: string;
}

/** Username input with live availability (POST /user/available) once the name is well-formed. */
export function UsernameField({ value, onValueChange, error, className }: UsernameFieldProps) {
  const { t } = useTranslation();
  const debounced = useDebouncedValue(value.trim(), 350);
  const isWellFormed = debounced !== '' && usernameSchema.safeParse(debounced).success;
  const availability = useQuery({ ...usernameAvailableQueryOptions(debounced), enabled: isWellFormed && !error });
  const isCurrent = debounced === value.trim() && isWellFormed;

  // A reserved word (a fixed API path such as `network`) is not free either, but not taken: say why.
  const takenError: FieldIssue | undefined =
    isCurrent && availability.data === false ? { code: isReservedUsername(debounced) ? 'reserved' : 'username_taken' } : undefined;
  const status =
    !error && isCurrent
      ? availability.isFetching
        ? t('user.usernameChecking')
        : availability.data === true
          ? t('user.usernameAvailable')
          : undefined
      : undefined;

  return (
    <TextField
      label={t('user.username')}
      name="username"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      className={className}
      value={value}
      onValueChange={onValueChange}
      error={error ?? takenError}
      status={status}
    />
  );
}
