import type { User } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { usersListQueryOptions } from '@/features/users/users.queries';
import { formatNumber } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { useDebouncedValue } from '@/lib/use-debounced-value';

export interface PickedUser {
  id: string;
  label: string;
}

interface MapUserPickerProps {
  value: PickedUser | undefined;
  onChange: (user: PickedUser | undefined) => void;
  isDisabled?: boolean;
  /** Accessible name and error wiring of the input, from the mapping row. */
  a11y: { 'aria-label': string; 'aria-invalid'?: boolean | undefined; 'aria-describedby'?: string | undefined };
}

const PAGE_SIZE = 20;

export const userLabel = (u: Pick<User, 'first_name' | 'last_name' | 'username'>) => `${u.first_name} ${u.last_name} (${u.username})`;

/**
 * A combobox over the server-paged user list (GET /user?search=…): only one small page is ever
 * loaded, so any of 10,000 users can be found by name, username or email. Arrow keys move, Enter
 * picks, Escape closes; Enter is ignored while the shown matches are not yet those of the text.
 */
export function MapUserPicker({ value, onChange, isDisabled, a11y }: MapUserPickerProps) {
  const { t, language } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(value?.label ?? '');
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(0);
  const term = value && text === value.label ? '' : text.trim();
  const search = useDebouncedValue(term, 250);
  const users = useQuery({
    ...usersListQueryOptions({ page: 1, per_page: PAGE_SIZE, filter: 'all', sort: 'username', ...(search ? { search } : {}) }),
    enabled: isOpen && !isDisabled,
  });
  const items = users.data?.items ?? [];
  const isStale = search !== term || users.isFetching;
  const activeUser = isOpen ? items[Math.min(active, items.length - 1)] : undefined;

  const activeId = activeUser ? `${id}-${activeUser.id}` : undefined;
  useEffect(() => {
    // jsdom has no scrollIntoView; browsers keep the option moved to by the arrows in view.
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const open = () => {
    setIsOpen(true);
    setActive(0);
  };

  const choose = (user: User) => {
    const label = userLabel(user);
    onChange({ id: String(user.id), label });
    setText(label);
    setIsOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!isOpen) return open();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => Math.min(Math.max(i + step, 0), Math.max(items.length - 1, 0)));
    } else if (event.key === 'Enter' && isOpen) {
      event.preventDefault();
      if (activeUser && !isStale) choose(activeUser);
    } else if (event.key === 'Escape') {
      if (isOpen) event.preventDefault();
      setIsOpen(false);
      if (!isOpen && value) setText(value.label);
    }
  };

  let status: string | undefined;
  if (users.isError) status = t('wizard.map.userSearchFailed');
  else if (users.isPending || (isStale && items.length === 0)) status = t('common.loading');
  else if (items.length === 0) status = t('wizard.map.noUsers');
  else if ((users.data?.total ?? 0) > items.length) {
    status = t('wizard.map.moreUsers', { shown: formatNumber(language, items.length), count: users.data?.total ?? 0 });
  }

  return (
    <div className="user-picker">
      <input
        className="input"
        role="combobox"
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        autoComplete="off"
        spellCheck={false}
        disabled={isDisabled}
        placeholder={isDisabled ? t('wizard.map.keepsOwner') : t('wizard.map.searchUser')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          open();
          if (value) onChange(undefined);
        }}
        onKeyDown={onKeyDown}
        onClick={() => (isOpen ? undefined : open())}
        onBlur={() => {
          setIsOpen(false);
          if (value) setText(value.label);
        }}
        {...a11y}
      />
      <div className="user-picker__popup" hidden={!isOpen}>
        <div id={listId} role="listbox" aria-label={a11y['aria-label']} className="user-picker__list">
          {isOpen
            ? items.map((user, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled on the combobox input (aria-activedescendant pattern)
                <div
                  key={user.id}
                  id={`${id}-${user.id}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  className="user-picker__option"
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseMove={() => setActive(index)}
                  onClick={() => choose(user)}
                >
                  {userLabel(user)}
                </div>
              ))
            : null}
        </div>
        {status ? (
          <p className="user-picker__status" role="status">
            {status}
          </p>
        ) : null}
      </div>
    </div>
  );
}
