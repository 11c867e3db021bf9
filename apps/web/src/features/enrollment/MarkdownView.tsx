import { useMemo } from 'react';
import { renderMarkdown } from './markdown';

/** Renders an admin's Markdown (the welcome message) inertly: see `markdown.ts`. */
export function MarkdownView({ markdown, className }: { markdown: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it runs with html off and a link allow-list (markdown.ts, tested)
  return <div className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}
