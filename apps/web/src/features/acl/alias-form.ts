import { ApiError } from '@palisade/api-client';
import {
  type AclAlias,
  type AclAliasBody,
  type AclAliasKind,
  type AclProtocol,
  type AclRuleRef,
  AclRuleRefSchema,
} from '@palisade/contracts';

export type AliasFormValues = {
  name: string;
  kind: AclAliasKind;
  destinations: string[];
  ports: string[];
  protocols: AclProtocol[];
};

export const EMPTY_ALIAS: AliasFormValues = { name: '', kind: 'destination', destinations: [], ports: [], protocols: [] };

export const aliasFormValues = (alias: AclAlias | undefined): AliasFormValues =>
  alias
    ? {
        name: alias.name,
        kind: alias.kind,
        destinations: [...alias.destinations],
        ports: [...alias.ports],
        protocols: [...alias.protocols],
      }
    : EMPTY_ALIAS;

export const aliasBody = (v: AliasFormValues): AliasFormValues & AclAliasBody => ({ ...v });

/**
 * Spec §4: aliases are deployed rows and their pending changes (`changed`, `parent_id` = the
 * deployed alias). The list shows each alias once: its pending version when it has one.
 */
export function currentAliases(aliases: readonly AclAlias[]): AclAlias[] {
  const changedParents = new Set(aliases.flatMap((a) => (a.state === 'changed' && a.parent_id !== undefined ? [a.parent_id] : [])));
  return aliases.filter((a) => !changedParents.has(a.id)).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The deployed version of an alias (for what a pending change affects: its deployed rules). */
export const deployedAlias = (aliases: readonly AclAlias[], alias: AclAlias): AclAlias | undefined =>
  alias.parent_id === undefined ? alias : aliases.find((a) => a.id === alias.parent_id);

/** Deployed rules that deploying these pending alias changes affects, each once, by name. */
export function affectedRules(aliases: readonly AclAlias[], pending: readonly AclAlias[]): { id: number; name: string }[] {
  const byId = new Map<number, { id: number; name: string }>();
  for (const change of pending) {
    for (const rule of [...(deployedAlias(aliases, change)?.rules ?? []), ...change.rules]) byId.set(rule.id, rule);
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The rules a refused alias deletion names (409 `acl.alias_in_use`), or undefined for any other error. */
export function rulesBlockingDeletion(error: unknown): AclRuleRef[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'acl.alias_in_use') return undefined;
  const parsed = AclRuleRefSchema.array().safeParse((error.problem as { rules?: unknown }).rules);
  return parsed.success ? parsed.data : [];
}
