import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ActivitySearch } from './activity-search';
import { ActivityToolbar } from './ActivityToolbar';

const renderToolbar = (search: ActivitySearch, onChange = vi.fn(), onClear = vi.fn()) => {
  const view = render(<ActivityToolbar search={search} isAdmin={false} onChange={onChange} onClear={onClear} />);
  const rerender = (next: ActivitySearch) =>
    view.rerender(<ActivityToolbar search={next} isAdmin={false} onChange={onChange} onClear={onClear} />);
  return { onChange, rerender, box: screen.getByLabelText('Search') as HTMLInputElement };
};

describe('ActivityToolbar', () => {
  it('puts the search term into the URL once typing pauses, not per keystroke', async () => {
    const { onChange, box } = renderToolbar({});
    fireEvent.change(box, { target: { value: 'v' } });
    fireEvent.change(box, { target: { value: 'vp' } });
    fireEvent.change(box, { target: { value: 'vpn ' } });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ search: 'vpn' }));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('follows the URL when the filters are cleared elsewhere, but never overwrites what is being typed', async () => {
    const { onChange, rerender, box } = renderToolbar({});
    fireEvent.change(box, { target: { value: 'vpn' } });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ search: 'vpn' }));
    // The URL catches up with the debounced term while the user types on.
    fireEvent.change(box, { target: { value: 'vpn-gw' } });
    rerender({ search: 'vpn' });
    expect(box.value).toBe('vpn-gw');
    // "Clear filters" (or going back) empties the URL: the box follows.
    rerender({});
    expect(box.value).toBe('');
  });

  it('offers the user filter to administrators only', () => {
    renderToolbar({});
    expect(screen.queryByRole('button', { name: /^Users:/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Modules: Any' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Events: Any' })).toBeTruthy();
  });

  it('counts the chosen modules and event types on their buttons', () => {
    renderToolbar({ module: ['users', 'auth'], event: ['user.created'] });
    expect(screen.getByRole('button', { name: 'Modules: 2 selected' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Events: 1 selected' })).toBeTruthy();
  });
});
