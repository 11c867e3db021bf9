import type { AclRuleBody } from '@palisade/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { RuleForm } from './RuleForm';
import { useCreateAclRule } from './acl.mutations';
import { EMPTY_RULE } from './rule-form';
import './acl.css';

/** Spec §2 rule create page: a new rule is pending until deployed. */
export function RuleCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAclRule();
  const save = (body: AclRuleBody) =>
    create.mutateAsync(body).then(
      (rule) => {
        pushToast({ id: `acl-rule-created-${rule.id}`, kind: 'success', message: t('acl.rule.created', { name: rule.name }) });
        void navigate({ to: '/acl', ignoreBlocker: true });
        return undefined;
      },
      (error: unknown) => error,
    );
  return (
    <section aria-labelledby="acl-rule-title">
      <header className="page-header">
        <div>
          <Link to="/acl" className="btn btn--link">
            ← {t('acl.back')}
          </Link>
          <h1 id="acl-rule-title" className="page-header__title">
            {t('acl.rule.add')}
          </h1>
        </div>
      </header>
      <RuleForm initial={EMPTY_RULE} isPending={create.isPending} onSubmit={save} />
    </section>
  );
}
