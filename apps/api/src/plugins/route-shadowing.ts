import { CreateGroupBodySchema, CreateUserBodySchema, shadowedSegments, takesGroupName, takesUsername } from '@palisade/contracts';

/** Name parameters and the schema that must refuse, for a new name, every segment a static route shadows. */
const NAME_RULES = [
  { what: 'username', takes: takesUsername, schema: CreateUserBodySchema.shape.username },
  { what: 'group name', takes: takesGroupName, schema: CreateGroupBodySchema.shape.name },
] as const;

/**
 * The names a user could be given that a registered static route would shadow: `POST /device/network`
 * wins over `POST /device/{username}`, so `network` must not be a valid new username. Empty when
 * the contracts' reserved words cover every registered route.
 */
export function findShadowedNames(routes: readonly string[]): { what: string; name: string }[] {
  return NAME_RULES.flatMap(({ what, takes, schema }) =>
    shadowedSegments(routes, takes)
      .filter((name) => schema.safeParse(name).success)
      .map((name) => ({ what, name })),
  );
}

/** Start-up check: fails fast, naming the word, when a new static route shadows a valid name. */
export function assertNamesNotShadowed(routes: readonly string[]): void {
  const found = findShadowedNames(routes);
  if (found.length === 0) return;
  const list = found.map((f) => `${f.what} '${f.name}'`).join(', ');
  throw new Error(
    `A static route shadows a name-addressed route for ${list}: such a name could be created but never reached. ` +
      'Reserve it (contracts/validation.ts derives reserved words from the permission table).',
  );
}
