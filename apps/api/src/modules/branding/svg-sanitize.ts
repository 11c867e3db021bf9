import type { DOMPurify } from 'dompurify';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Attributes that load a resource: only references inside the file itself (`#id`) may stay. */
const REFERENCE_ATTRIBUTES = new Set(['href', 'xlink:href', 'src']);
/** A CSS `url(...)` that is not a reference inside the file (`url(#id)`). */
const EXTERNAL_URL = /url\s*\(\s*(?!['"]?\s*#)/i;

let purifier: Promise<{ purify: DOMPurify; serialize: (node: Element) => string }> | undefined;

/** DOMPurify on a jsdom window, loaded on the first SVG upload (not at API start). */
function loadPurifier() {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook('afterSanitizeAttributes', (node) => {
      for (const { name, value } of [...node.attributes]) {
        const external = REFERENCE_ATTRIBUTES.has(name.toLowerCase()) ? !value.trim().startsWith('#') : EXTERNAL_URL.test(value);
        if (external) node.removeAttribute(name);
      }
    });
    const serializer = new window.XMLSerializer();
    return { purify, serialize: (node: Element) => serializer.serializeToString(node) };
  })();
  return purifier;
}

export interface SanitizedSvg {
  /** The cleaned document, serialised as XML. */
  text: string;
  /** Its size in pixels from width/height (unitless or px), else from the viewBox; undefined when neither tells. */
  width?: number;
  height?: number;
}

/**
 * Removes from an SVG everything that runs or loads something: scripts, event handlers,
 * `javascript:` links, `<foreignObject>`, `<style>` sheets and every reference outside the file
 * (`href`, `xlink:href`, CSS `url()`). Undefined when the text has no `<svg>` root.
 */
export async function sanitizeSvg(source: string): Promise<SanitizedSvg | undefined> {
  const { purify, serialize } = await loadPurifier();
  const body = purify.sanitize(source, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['style', 'foreignObject', 'use'],
    RETURN_DOM: true,
  }) as unknown as Element;
  const root = body.firstElementChild;
  if (root?.localName !== 'svg' || root.namespaceURI !== SVG_NS || body.childElementCount !== 1) return undefined;
  return { text: serialize(root), ...svgSize(root) };
}

const PIXELS = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i;

function svgSize(root: Element): { width?: number; height?: number } {
  const width = PIXELS.exec(root.getAttribute('width') ?? '');
  const height = PIXELS.exec(root.getAttribute('height') ?? '');
  if (width && height) return { width: Number(width[1]), height: Number(height[1]) };
  const box = (root.getAttribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box.length !== 4 || box.some((n) => !Number.isFinite(n))) return {};
  const [, , boxWidth = 0, boxHeight = 0] = box;
  if (boxWidth <= 0 || boxHeight <= 0) return {};
  // One of width/height given: the other follows the viewBox's aspect ratio.
  if (width) return { width: Number(width[1]), height: (Number(width[1]) * boxHeight) / boxWidth };
  if (height) return { width: (Number(height[1]) * boxWidth) / boxHeight, height: Number(height[1]) };
  return { width: boxWidth, height: boxHeight };
}
