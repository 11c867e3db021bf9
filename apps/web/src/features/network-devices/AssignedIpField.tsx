import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssue } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { checkIpsQueryOptions, suggestedIpsQueryOptions } from './network-devices.queries';

export const splitIps = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

interface AssignedIpFieldProps {
  locationId: number;
  value: string;
  onValueChange: (value: string) => void;
  error?: FieldIssue | undefined;
  /** Prefill with the location's first free IPs (add dialog); edit keeps the device's own. */
  shouldSuggest: boolean;
  /** The device's current IPs: "in use" by itself is not an error while editing. */
  ownIps?: readonly string[];
}

const isSameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((ip) => b.includes(ip));

/**
 * Assigned IPs, prefilled from GET /device/network/ip/{location} and checked live against the
 * location. While editing, the device's own current addresses are said to be its own and are
 * not checked: only a change is.
 */
export function AssignedIpField({ locationId, value, onValueChange, error, shouldSuggest, ownIps = [] }: AssignedIpFieldProps) {
  const { t } = useTranslation();
  const suggested = useQuery({ ...suggestedIpsQueryOptions(locationId), enabled: shouldSuggest && locationId > 0 });
  const isOwn = (list: readonly string[]) => ownIps.length > 0 && isSameSet(list, ownIps);
  const isCurrent = isOwn(splitIps(value));
  const ips = splitIps(useDebouncedValue(value, 350));
  const isChecked = !isOwn(ips) && locationId > 0 && ips.length > 0;
  const check = useQuery({ ...checkIpsQueryOptions(locationId, ips), enabled: isChecked });

  // biome-ignore lint/correctness/useExhaustiveDependencies: prefill once per location, not on every keystroke
  useEffect(() => {
    if (shouldSuggest && suggested.data?.length) onValueChange(suggested.data.join(', '));
  }, [suggested.data, shouldSuggest]);

  const bad = isCurrent ? undefined : check.data?.find((r) => !r.valid && !(r.code === 'network.ip_in_use' && ownIps.includes(r.ip)));
  const liveError: FieldIssue | undefined = bad ? { code: bad.code ?? 'network.ip_invalid' } : undefined;
  const isOk = !isCurrent && isChecked && check.data !== undefined && !bad;
  return (
    <TextField
      label={t('networkDevices.assignedIp')}
      className="form-grid__wide"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onValueChange={onValueChange}
      error={error ?? liveError}
      status={isCurrent ? t('networkDevices.currentAddress') : isOk ? t('networkDevices.ipAvailable') : undefined}
      hint={shouldSuggest ? t('networkDevices.assignedIpHint') : t('networkDevices.assignedIpEditHint')}
    />
  );
}
