import MarkdownIt from 'markdown-it';

/*
 * The welcome message is Markdown written by an admin and shown to people who are not signed in:
 * it must never run script. markdown-it with `html: false` escapes every raw tag, and its link
 * validator drops `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs. On top of that,
 * links may only be http(s) or mailto, and they open in a new tab without an opener.
 */
const SAFE_LINK = /^(https?:|mailto:)/i;

const renderer = new MarkdownIt({ html: false, linkify: true, breaks: true });

const defaultValidate = renderer.validateLink.bind(renderer);
renderer.validateLink = (url: string): boolean => {
  const trimmed = url.trim();
  if (!defaultValidate(trimmed)) return false;
  return SAFE_LINK.test(trimmed) || !/^[a-z][a-z0-9+.-]*:/i.test(trimmed);
};

renderer.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index];
  if (token) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer nofollow');
  }
  return self.renderToken(tokens, index, options);
};

/** Markdown to HTML that is safe to put into the page (see the header comment). */
export function renderMarkdown(markdown: string): string {
  return renderer.render(markdown);
}
