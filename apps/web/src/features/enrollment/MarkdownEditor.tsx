import { useId, useState } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';
import { MarkdownView } from './MarkdownView';

interface MarkdownEditorProps {
  label: string;
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: FieldIssue | undefined;
  hint?: string;
}

/** A Markdown text area with a Write / Preview switch; the preview renders as the enrollment page does. */
export function MarkdownEditor({ label, name, value, onValueChange, error, hint }: MarkdownEditorProps) {
  const { t } = useTranslation();
  const id = useId();
  const [isPreview, setIsPreview] = useState(false);
  const errorId = error ? `${id}-error` : undefined;
  const hintId = `${id}-hint`;
  return (
    <div className={['field', 'form-grid__wide', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <div className="markdown-editor__bar">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <fieldset className="markdown-editor__modes" aria-label={t('enrollment.settings.editorMode', { field: label })}>
          <button type="button" className="btn btn--secondary btn--sm" aria-pressed={!isPreview} onClick={() => setIsPreview(false)}>
            {t('enrollment.settings.write')}
          </button>
          <button type="button" className="btn btn--secondary btn--sm" aria-pressed={isPreview} onClick={() => setIsPreview(true)}>
            {t('enrollment.settings.preview')}
          </button>
        </fieldset>
      </div>
      {isPreview ? (
        <section className="markdown-editor__preview" aria-label={t('enrollment.settings.previewOf', { field: label })}>
          {value.trim() ? <MarkdownView markdown={value} /> : <p className="muted">{t('enrollment.settings.previewEmpty')}</p>}
        </section>
      ) : (
        <textarea
          id={id}
          name={name}
          className="input markdown-editor__input"
          rows={10}
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
        />
      )}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
      <p id={hintId} className="field__hint">
        {hint ?? t('enrollment.settings.markdownHint')}
      </p>
    </div>
  );
}
