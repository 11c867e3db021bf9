import { createHash } from 'node:crypto';
import { LOGO_MAX_BYTES, LOGO_MAX_PIXELS, type LogoContentType, type LogoKind } from '@palisade/contracts';
import { HttpProblem } from '#src/lib/problem.js';
import { sanitizeSvg } from './svg-sanitize.js';

export interface LogoFile {
  contentType: LogoContentType;
  /** The bytes to store and serve (an SVG after sanitising). */
  bytes: Buffer;
  /** First 16 hex digits of the SHA-256 of `bytes`. */
  hash: string;
}

export const LOGO_EXTENSIONS: Record<LogoContentType, string> = { 'image/png': 'png', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type the file's first bytes announce: PNG and WebP by signature, SVG by an `<svg` element. */
function sniff(bytes: Buffer): LogoContentType | undefined {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (/<svg[\s>/]/i.test(bytes.toString('utf8', 0, Math.min(bytes.length, 4096)))) return 'image/svg+xml';
  return undefined;
}

const undecodable = (detail: string) => new HttpProblem(400, 'logo.undecodable', detail);

/**
 * Checks an uploaded logo: at most LOGO_MAX_BYTES, a PNG, WebP or SVG that decodes, within the
 * kind's pixel size (spec §5). Raster images are decoded in full by sharp; an SVG is sanitised
 * and sized from its width/height or viewBox.
 */
export async function inspectLogo(kind: LogoKind, bytes: Buffer): Promise<LogoFile> {
  if (bytes.length > LOGO_MAX_BYTES)
    throw new HttpProblem(413, 'logo.too_large', `The logo is ${bytes.length} bytes; the limit is ${LOGO_MAX_BYTES} bytes.`);
  const contentType = sniff(bytes);
  if (!contentType) throw new HttpProblem(415, 'logo.unsupported_type', 'A logo must be a PNG, WebP or SVG image.');
  const limit = LOGO_MAX_PIXELS[kind];
  const { width, height, stored } = contentType === 'image/svg+xml' ? await svgFile(bytes) : await rasterFile(bytes, contentType, limit);
  if (width > limit.width || height > limit.height)
    throw new HttpProblem(
      400,
      'logo.too_many_pixels',
      `The logo is ${Math.round(width)}×${Math.round(height)} px; the ${kind === 'main' ? 'login page' : 'navigation'} logo may be at most ${limit.width}×${limit.height} px.`,
    );
  return { contentType, bytes: stored, hash: createHash('sha256').update(stored).digest('hex').slice(0, 16) };
}

async function svgFile(bytes: Buffer) {
  const svg = await sanitizeSvg(bytes.toString('utf8'));
  if (!svg) throw undecodable('The file is not an SVG image with one <svg> root element.');
  if (svg.width === undefined || svg.height === undefined)
    throw undecodable('The SVG has no size: give it width and height in pixels or a viewBox.');
  return { width: svg.width, height: svg.height, stored: Buffer.from(svg.text, 'utf8') };
}

async function rasterFile(bytes: Buffer, contentType: 'image/png' | 'image/webp', limit: { width: number; height: number }) {
  const { default: sharp } = await import('sharp');
  // The pixel limit stops a small file that claims a huge image before anything is decoded.
  const image = () => sharp(bytes, { limitInputPixels: limit.width * limit.height * 4, animated: false, failOn: 'error' });
  const meta = await image()
    .metadata()
    .catch(() => undefined);
  if (!meta?.width || !meta.height || `image/${meta.format}` !== contentType)
    throw undecodable(`The file is not a valid ${LOGO_EXTENSIONS[contentType].toUpperCase()} image.`);
  if (meta.width <= limit.width && meta.height <= limit.height) {
    // Decode every pixel: a truncated or corrupt file fails here, not in the browser.
    await image()
      .raw()
      .toBuffer()
      .catch(() => {
        throw undecodable(`The file is not a valid ${LOGO_EXTENSIONS[contentType].toUpperCase()} image.`);
      });
  }
  return { width: meta.width, height: meta.height, stored: bytes };
}
