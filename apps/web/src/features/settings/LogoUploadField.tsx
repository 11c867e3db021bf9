import { LOGO_MAX_BYTES, LOGO_MAX_PIXELS, type LogoKind } from '@palisade/contracts';
import { type ChangeEvent, useId } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { useUploadLogo } from './branding.mutations';

interface Props {
  kind: LogoKind;
  /** Off while the form has unsaved changes: the upload saves at once and reloads the form. */
  isDisabled: boolean;
}

/** Uploads a logo file (PNG, WebP, SVG); the server checks its size and points the setting at it. */
export function LogoUploadField({ kind, isDisabled }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const upload = useUploadLogo();
  const { width, height } = LOGO_MAX_PIXELS[kind];
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Emptied at once, so choosing the same file again (after a refusal) uploads it again.
    event.target.value = '';
    if (file) upload.mutate({ kind, file });
  };
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t(kind === 'main' ? 'settings.mainLogoUpload' : 'settings.navLogoUpload')}
      </label>
      <input
        id={id}
        type="file"
        name={`${kind}_logo_file`}
        accept=".png,.webp,.svg,image/png,image/webp,image/svg+xml"
        disabled={isDisabled || upload.isPending}
        onChange={onFile}
      />
      <p className="field__hint">
        {isDisabled
          ? t('settings.logoUploadUnsaved')
          : t('settings.logoUploadHint', { width, height, size: Math.round(LOGO_MAX_BYTES / 1024) })}
      </p>
    </div>
  );
}
