import { USER_LANGUAGES, type UpdateUserBody, UpdateUserBodySchema, type User, type UserLanguage } from '@palisade/contracts';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { hasChanges, useLeaveGuard } from '@/lib/use-leave-guard';
import { useZodForm } from '@/lib/use-zod-form';
import { AdminChangeConfirm } from '@/features/groups/AdminChangeConfirm';
import { type AdminImpact, withMemberships } from '@/features/groups/admin-change';
import { useAdminChange } from '@/features/groups/use-admin-change';
import { ConfirmIdentityChange } from './ConfirmIdentityChange';
import { GroupsChecklist } from './GroupsChecklist';
import { useUpdateUser } from './users.mutations';

interface UserDetailsFormProps {
  user: User;
  /** Only admins may change status and groups; the controls are hidden for everyone else. */
  isAdmin: boolean;
  isSelf: boolean;
  onDone: () => void;
}

export function UserDetailsForm({ user, isAdmin, onDone }: UserDetailsFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const update = useUpdateUser();
  const initial = {
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    phone: user.phone ?? '',
    is_active: user.is_active,
    groups: user.groups,
    language: user.language ?? '',
  };
  const form = useZodForm(UpdateUserBodySchema, initial);
  useLeaveGuard(hasChanges(form.values, initial), t('form.leaveWarning'));
  const [pending, setPending] = useState<UpdateUserBody | undefined>(undefined);
  const { assess } = useAdminChange();
  const [adminAsk, setAdminAsk] = useState<{ body: UpdateUserBody; impact: AdminImpact } | undefined>(undefined);

  const save = (body: UpdateUserBody) =>
    update.mutate(
      { username: user.username, body },
      {
        onSuccess: (saved) => {
          setPending(undefined);
          pushToast({ id: `profile-saved-${saved.username}`, kind: 'success', message: t('profile.saved') });
          // A new username is a new address: follow it (the old one answers "not found" now).
          if (saved.username !== user.username)
            void navigate({ to: '/users/$username', params: { username: saved.username }, replace: true, ignoreBlocker: true });
          else onDone();
        },
        onError: (error) => {
          setPending(undefined);
          if (hasCode(error, 'user.username_taken')) form.setErrors({ username: { code: 'username_taken' } });
          else if (hasCode(error, 'user.email_taken')) form.setErrors({ email: { code: 'email_taken' } });
          else if (!form.applyServerError(error)) pushToast({ id: 'profile-save-error', kind: 'error', message: problemMessage(t, error) });
        },
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { phone, is_active, groups, language, ...rest } = form.values;
    // The language of emails is sent only when an admin changed it: the user's console keeps it otherwise.
    const languageChange = isAdmin && language !== initial.language ? { language: language === '' ? null : language } : {};
    const body = form.validate({
      ...rest,
      ...(phone.trim() ? { phone } : {}),
      ...(isAdmin ? { is_active, groups } : {}),
      ...languageChange,
    });
    if (!body) return;
    // Group changes that take the own admin rights or give someone admin rights ask first.
    const impact = body.groups ? assess((all) => withMemberships(all, user.username, body.groups ?? [])) : undefined;
    if (impact) setAdminAsk({ body, impact });
    else confirmIdentity(body);
  };

  // Spec §5: a changed username or email asks for confirmation first.
  const confirmIdentity = (body: UpdateUserBody) => {
    setAdminAsk(undefined);
    if (body.username !== user.username || body.email !== user.email) setPending(body);
    else save(body);
  };

  const text = (name: 'username' | 'first_name' | 'last_name' | 'email' | 'phone') => ({
    name,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
    autoComplete: 'off',
  });

  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="details-edit-title">
      <div className="card__header">
        <h2 id="details-edit-title" className="card__title">
          {t('profile.editDetails')}
        </h2>
      </div>
      <div className="card__body form-grid form-grid--2">
        <TextField label={t('user.username')} className="form-grid__wide" autoCapitalize="none" spellCheck={false} {...text('username')} />
        <TextField label={t('user.firstName')} {...text('first_name')} />
        <TextField label={t('user.lastName')} {...text('last_name')} />
        <TextField label={t('user.email')} type="email" {...text('email')} />
        <TextField label={t('user.phone')} type="tel" isOptional {...text('phone')} />
        {isAdmin ? (
          <>
            <SelectField<UserLanguage | ''>
              label={t('user.mailLanguage')}
              value={form.values.language as UserLanguage | ''}
              options={[
                { value: '', label: t('user.mailLanguageUnknown') },
                ...USER_LANGUAGES.map((value) => ({ value, label: t(`lang.${value}`) })),
              ]}
              onValueChange={(value) => form.setValue('language', value)}
            />
            <div className="form-grid__wide">
              <CheckboxField
                label={t('profile.isActive')}
                checked={form.values.is_active}
                onCheckedChange={(v) => form.setValue('is_active', v)}
              />
            </div>
            <GroupsChecklist
              className="form-grid__wide"
              value={form.values.groups}
              onChange={(groups) => form.setValue('groups', groups)}
            />
          </>
        ) : null}
        <div className="form-actions form-grid__wide">
          <Button onClick={onDone}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" isLoading={update.isPending}>
            {t('common.save')}
          </Button>
        </div>
      </div>
      <AdminChangeConfirm
        impact={adminAsk?.impact}
        onCancel={() => setAdminAsk(undefined)}
        onConfirm={() => adminAsk && confirmIdentity(adminAsk.body)}
      />
      <ConfirmIdentityChange
        user={user}
        body={pending}
        isPending={update.isPending}
        onCancel={() => setPending(undefined)}
        onConfirm={save}
      />
    </form>
  );
}
