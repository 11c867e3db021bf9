import { type FormEvent, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { issuesFromProblem } from '@/lib/field-errors';

export interface RenameDialogProps {
  title: string;
  label: string;
  submitLabel: string;
  /** The form's id (the footer's submit button targets it); the field is named `<name>`. */
  formId: string;
  name: string;
  initialName: string;
  isSaving: boolean;
  /** The rename's failure, if any: a 400 on `name` shows on the field, anything else as a banner. */
  error: unknown;
  /** Called with the trimmed, non-empty name. */
  onRename: (name: string) => void;
  onClose: () => void;
}

/** A one-field rename dialog (authentication keys, YubiKeys, …). */
export function RenameDialog(props: RenameDialogProps) {
  const [name, setName] = useState(props.initialName);
  const nameIssue = props.error ? issuesFromProblem(props.error)?.name : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    props.onRename(name.trim());
  };
  return (
    <Dialog
      title={props.title}
      isOpen
      onClose={props.onClose}
      footer={<FormDialogFooter formId={props.formId} submitLabel={props.submitLabel} isSaving={props.isSaving} onCancel={props.onClose} />}
    >
      <form id={props.formId} className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={props.label}
          name={props.name}
          value={name}
          onValueChange={setName}
          maxLength={100}
          required
          error={nameIssue}
          autoFocus
        />
        <FormErrorBanner error={nameIssue ? null : props.error} />
      </form>
    </Dialog>
  );
}
