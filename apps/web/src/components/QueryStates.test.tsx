import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueryStates } from './QueryStates';

function List({ load, filter = '' }: { load: () => Promise<string[]>; filter?: string }) {
  const query = useQuery({ queryKey: ['items'], queryFn: load });
  const shown = (query.data ?? []).filter((item) => item.includes(filter));
  return (
    <QueryStates
      query={query}
      errorTitle="Could not load items"
      empty={(items) =>
        shown.length > 0 ? undefined : items.length === 0 ? { title: 'No items yet', hint: 'Add one' } : { title: 'No match' }
      }
    >
      {() => (
        <ul aria-label="items">
          {shown.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </QueryStates>
  );
}

function renderList(load: () => Promise<string[]>, filter?: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <List load={load} filter={filter} />
    </QueryClientProvider>,
  );
}

describe('QueryStates', () => {
  it('shows loading, then the content with the data', async () => {
    renderList(async () => ['alpha', 'beta']);
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect((await screen.findByRole('list', { name: 'items' })).textContent).toBe('alphabeta');
  });

  it('shows the empty state the page chose for the data: none at all, or none matching', async () => {
    renderList(async () => []);
    expect(await screen.findByText('No items yet')).toBeTruthy();
    expect(screen.getByText('Add one')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('tells no items from no match', async () => {
    renderList(async () => ['alpha'], 'zeta');
    expect(await screen.findByText('No match')).toBeTruthy();
  });

  it('shows the error with Try again, which loads again', async () => {
    let calls = 0;
    renderList(async () => {
      calls += 1;
      if (calls === 1) throw new Error('down');
      return ['alpha'];
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load items');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('list', { name: 'items' })).textContent).toBe('alpha');
  });
});
