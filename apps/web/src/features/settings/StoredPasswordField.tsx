import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import type { FieldIssue } from '@/lib/field-errors';

/** The texts of a stored password's field, in the tab's own words. */
export interface StoredPasswordLabels {
  label: string;
  /** Under the field once a password is stored: empty keeps it. */
  keepHint: string;
  /** The badge saying a password is stored. */
  isSet: string;
  /** The toggle's text while the password is to be removed: keep it after all. */
  keep: string;
  remove: string;
}

interface StoredPasswordFieldProps {
  labels: StoredPasswordLabels;
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: FieldIssue | undefined;
  /** Whether the server holds a password (it never sends it back). */
  isSet: boolean;
  /** Whether Save removes the stored password (the field is disabled meanwhile). */
  isRemoved: boolean;
  onRemovedChange: (isRemoved: boolean) => void;
}

/**
 * A settings password the server stores and never shows: empty keeps it, a new value replaces
 * it, and, once one is stored, a toggle to remove it on Save.
 */
export function StoredPasswordField({ labels, isSet, isRemoved, onRemovedChange, ...field }: StoredPasswordFieldProps) {
  return (
    <div className="form-grid__stack">
      <TextField
        label={labels.label}
        type="password"
        autoComplete="new-password"
        isOptional
        disabled={isRemoved}
        hint={isSet ? labels.keepHint : undefined}
        status={isSet && !isRemoved ? <Badge tone="success">{labels.isSet}</Badge> : undefined}
        {...field}
      />
      {isSet ? (
        <Button size="sm" variant="ghost" onClick={() => onRemovedChange(!isRemoved)} aria-pressed={isRemoved}>
          {isRemoved ? labels.keep : labels.remove}
        </Button>
      ) : null}
    </div>
  );
}

/** The body's part for a stored password: '' removes it, a new value replaces it, nothing keeps it. */
export function storedPasswordBody<K extends string>(key: K, value: string, isRemoved: boolean): Partial<Record<K, string>> {
  if (isRemoved) return { [key]: '' } as Record<K, string>;
  return value === '' ? {} : ({ [key]: value } as Record<K, string>);
}
