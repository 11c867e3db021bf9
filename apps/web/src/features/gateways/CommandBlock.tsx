import { useId } from 'react';
import { Button } from '@/components/Button';
import { useCopy } from '@/lib/use-copy';

/** A titled block of text (command, file or value) with a copy button. */
export function CommandBlock({ title, text, copyLabel, hint }: { title: string; text: string; copyLabel: string; hint?: string }) {
  const copy = useCopy();
  const id = useId();
  return (
    <section className="command-block" aria-labelledby={id}>
      <div className="command-block__header">
        <h3 id={id} className="command-block__title">
          {title}
        </h3>
        <Button size="sm" onClick={() => void copy(text)}>
          {copyLabel}
        </Button>
      </div>
      {hint ? <p className="field__hint">{hint}</p> : null}
      <pre className="command-block__text">
        <code>{text}</code>
      </pre>
    </section>
  );
}
