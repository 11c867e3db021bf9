import { formatNumber } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { Button } from './Button';
import { SelectField } from './SelectField';

const PER_PAGE_OPTIONS = ['25', '50', '100', '200'] as const;

interface PaginationProps {
  page: number;
  perPage: number;
  total: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
}

export function Pagination({ page, perPage, total, onPageChange, onPerPageChange }: PaginationProps) {
  const { t, language } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / perPage));
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  const n = (v: number) => formatNumber(language, v);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <p className="pagination__summary">{t('pagination.summary', { from: n(from), to: n(to), total: n(total) })}</p>
      <SelectField
        label={t('pagination.perPage')}
        value={String(perPage)}
        options={PER_PAGE_OPTIONS.map((v) => ({ value: v, label: v }))}
        onValueChange={(v) => onPerPageChange(Number(v))}
        className="pagination__per-page"
      />
      <div className="pagination__pages">
        <Button size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1} aria-label={t('pagination.prev')}>
          ‹
        </Button>
        <span className="pagination__current" aria-live="polite">
          {t('pagination.page', { page: n(page), pages: n(pages) })}
        </span>
        <Button size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pages} aria-label={t('pagination.next')}>
          ›
        </Button>
      </div>
    </nav>
  );
}
