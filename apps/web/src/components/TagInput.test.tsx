import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TagInput } from './TagInput';

function Harness({ initial = [] as string[] }) {
  const [values, setValues] = useState(initial);
  return (
    <>
      <TagInput label="DNS" values={values} onValuesChange={setValues} />
      <output>{values.join('|')}</output>
    </>
  );
}

describe('TagInput', () => {
  it('adds on Enter, comma and blur; splits pasted lists; skips duplicates', () => {
    render(<Harness />);
    const input = screen.getByLabelText('DNS');
    fireEvent.change(input, { target: { value: '1.1.1.1' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: '8.8.8.8, 1.1.1.1 9.9.9.9' } });
    fireEvent.blur(input);
    expect(screen.getByRole('status').textContent).toBe('1.1.1.1|8.8.8.8|9.9.9.9');
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('removes with the tag button and with Backspace in an empty field', () => {
    render(<Harness initial={['a.example', 'b.example', 'c.example']} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove b.example' }));
    fireEvent.keyDown(screen.getByLabelText('DNS'), { key: 'Backspace' });
    expect(screen.getByRole('status').textContent).toBe('a.example');
  });
});
