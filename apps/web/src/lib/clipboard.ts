import type { MessageKey } from '@/i18n/en';

export type CopyResult = 'copied' | 'insecure' | 'unavailable';

/** Spec §8: an insecure page cannot use the clipboard; a refused or missing clipboard is reported apart. */
export async function copyText(
  text: string,
  env: { isSecureContext: boolean; clipboard?: Pick<Clipboard, 'writeText'> | undefined },
): Promise<CopyResult> {
  if (!env.isSecureContext) return 'insecure';
  if (!env.clipboard) return 'unavailable';
  try {
    await env.clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'unavailable';
  }
}

export const COPY_MESSAGES: Record<CopyResult, MessageKey> = {
  copied: 'common.copied',
  insecure: 'error.clipboard.insecure',
  unavailable: 'error.clipboard.unavailable',
};
