import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { normalizeCode } from './code-input';
import { CodeInput } from './CodeInput';

function Harness({ onComplete }: { onComplete: (code: string) => void }) {
  const [value, setValue] = useState('');
  return <CodeInput label="Code" value={value} onValueChange={setValue} onComplete={onComplete} />;
}

function paste(input: HTMLElement, text: string) {
  fireEvent.paste(input, { clipboardData: { getData: () => text } });
}

describe('normalizeCode', () => {
  it('keeps the digits of a typed or pasted code, at most six', () => {
    expect(normalizeCode('123 456')).toBe('123456');
    expect(normalizeCode('123-456')).toBe('123456');
    expect(normalizeCode('Your code: 987654.')).toBe('987654');
    expect(normalizeCode('12a')).toBe('12');
    expect(normalizeCode('12345678')).toBe('123456');
  });
});

describe('CodeInput', () => {
  it('accepts a pasted code with spaces and submits it once complete', () => {
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    const input = screen.getByLabelText('Code') as HTMLInputElement;
    paste(input, ' 123 456 ');
    expect(input.value).toBe('123456');
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('123456');
  });

  it('drops letters while typing and submits on the sixth digit only', () => {
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    const input = screen.getByLabelText('Code') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '12x34' } });
    expect(input.value).toBe('1234');
    fireEvent.change(input, { target: { value: '12345' } });
    expect(onComplete).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '123456' } });
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('123456');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
  });

  it('a paste without digits leaves the field empty and submits nothing', () => {
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    const input = screen.getByLabelText('Code') as HTMLInputElement;
    paste(input, 'hello');
    expect(input.value).toBe('');
    expect(onComplete).not.toHaveBeenCalled();
  });
});
