import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from './Dialog';

function Harness() {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setIsOpen(true)}>
        open
      </button>
      <Dialog title="Edit thing" isOpen={isOpen} onClose={() => setIsOpen(false)} footer={<button type="button">last</button>}>
        <input aria-label="first field" />
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('focuses the first field, traps Tab, closes on Escape and gives focus back', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Edit thing' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('first field'));

    const last = screen.getByRole('button', { name: 'last' });
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close dialog' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);

    fireEvent.keyDown(last, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('asks before closing a secret shown once: Escape, backdrop and × open a confirmation; only "Close anyway" closes', () => {
    const onClose = vi.fn();
    render(
      <Dialog title="Token" isOpen onClose={onClose} confirmClose="You will not be able to see it again.">
        <button type="button">copy</button>
      </Dialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Token' });

    fireEvent.keyDown(screen.getByRole('button', { name: 'copy' }), { key: 'Escape' });
    const confirm = screen.getByRole('alertdialog', { name: 'Close without saving it?' });
    expect(confirm.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(confirm.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'You will not be able to see it again.',
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep open' }));
    // Escape inside the confirmation keeps the secret open.
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.mouseDown(dialog.parentElement as Element);
    fireEvent.click(screen.getByRole('button', { name: 'Keep open' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Close dialog' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close anyway' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes an ordinary dialog on a backdrop click without asking', () => {
    const onClose = vi.fn();
    render(
      <Dialog title="Edit" isOpen onClose={onClose}>
        <input aria-label="field" />
      </Dialog>,
    );
    fireEvent.mouseDown(screen.getByRole('dialog', { name: 'Edit' }).parentElement as Element);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
