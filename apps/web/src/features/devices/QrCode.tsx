import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

const MARGIN = 2;

/** The QR modules as one SVG path (no innerHTML, no canvas): one `h1v1h-1z` square per dark module. */
export function qrPath(text: string): { size: number; path: string } {
  const qr = qrcode(0, 'L');
  qr.addData(text, 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  let path = '';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) if (qr.isDark(row, col)) path += `M${col + MARGIN} ${row + MARGIN}h1v1h-1z`;
  }
  return { size: count + MARGIN * 2, path };
}

export function QrCode({ text, label, size = 220 }: { text: string; label: string; size?: number }) {
  const qr = useMemo(() => qrPath(text), [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}
