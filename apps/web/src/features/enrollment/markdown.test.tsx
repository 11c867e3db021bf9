import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';
import { MarkdownView } from './MarkdownView';

describe('renderMarkdown', () => {
  it('renders ordinary Markdown', () => {
    const html = renderMarkdown('# Welcome\n\nRead the **rules** at [our wiki](https://wiki.example.com).');
    expect(html).toContain('<h1>Welcome</h1>');
    expect(html).toContain('<strong>rules</strong>');
    expect(html).toContain('<a href="https://wiki.example.com" target="_blank" rel="noopener noreferrer nofollow">our wiki</a>');
  });

  it('escapes raw HTML and script tags instead of rendering them', () => {
    const html = renderMarkdown('Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('drops javascript:, data: and other non-web link targets', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'vbscript:x',
      'data:text/html,<script>x</script>',
      'file:///etc/passwd',
      'ftp://host/x',
    ]) {
      const html = renderMarkdown(`[click](${url})`);
      expect(html, url).not.toContain('<a');
    }
    expect(renderMarkdown('[mail](mailto:it@example.com)')).toContain('href="mailto:it@example.com"');
    expect(renderMarkdown('[doc](/docs/vpn)')).toContain('href="/docs/vpn"');
  });
});

describe('MarkdownView', () => {
  it('puts no script, raw element, event handler or javascript: link into the document', () => {
    const markdown = [
      '<script>window.pwned = true</script>',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="javascript:alert(1)">raw link</a>',
      '[md link](javascript:alert(1))',
      '![img](javascript:alert(1))',
      '<div onclick="alert(1)">x</div>',
    ].join('\n\n');
    const { container } = render(<MarkdownView markdown={markdown} />);
    expect(container.querySelector('script, iframe, img, .markdown div, [onclick]')).toBeNull();
    const hrefs = [...container.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(['https://evil.example']);
    expect(container.textContent).toContain('<script>window.pwned = true</script>');
    expect((window as unknown as { pwned?: boolean }).pwned).toBeUndefined();
  });
});
