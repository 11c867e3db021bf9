import { useId } from 'react';
import { Button } from '@/components/Button';
import { useCopy } from '@/lib/use-copy';

interface CommandBlockProps {
  title: string;
  text: string;
  copyLabel: string;
  hint?: string;
  /** Heading level of the title (3 by default; 4 inside a titled group). */
  level?: 3 | 4;
}

/** A titled block of text (command, file or value) with a copy button. */
export function CommandBlock({ title, text, copyLabel, hint, level = 3 }: CommandBlockProps) {
  const copy = useCopy();
  const id = useId();
  const Heading = level === 4 ? 'h4' : 'h3';
  return (
    <section className="command-block" aria-labelledby={id}>
      <div className="command-block__header">
        <Heading id={id} className="command-block__title">
          {title}
        </Heading>
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
