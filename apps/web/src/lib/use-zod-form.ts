import { useCallback, useState } from 'react';
import type { z } from 'zod';
import { type FieldIssues, issuesFromProblem, issuesFromZod } from './field-errors';

type Values = Record<string, unknown>;

/** A field's issues sit under its name, or under `name.<index>` for list fields (`assigned_ips.0`). */
const belongsTo = (path: string, name: string) => path === name || path.startsWith(`${name}.`);

/** The issues left once `name` changed: its own (and its items') go, the others stay. */
export function withoutField(errors: FieldIssues, name: string): FieldIssues {
  const paths = Object.keys(errors);
  if (!paths.some((path) => belongsTo(path, name))) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([path]) => !belongsTo(path, name)));
}

/**
 * A small form state hook around a contracts schema: the same schema the API validates with
 * checks the form before submit (STYLE habit 1); server field errors land on the same fields.
 *
 * Error lifecycle, the same for every form: each problem shows once, either under its field
 * (`errors`) or, when the server names no field, as the form's error (`formError`, shown as a
 * banner). Editing a field clears that field's error and the form error; a new submit (validate)
 * starts from a clean slate, so nothing from an earlier attempt lingers.
 */
export function useZodForm<S extends z.ZodType, V extends Values>(schema: S, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldIssues>({});
  const [formError, setFormError] = useState<unknown>(undefined);

  const setValue = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => withoutField(e, name as string));
    setFormError(undefined);
  }, []);

  /** Parses `toBody(values)`; on failure shows the issues and returns undefined. */
  const validate = useCallback(
    (body: unknown): z.output<S> | undefined => {
      setFormError(undefined);
      const result = schema.safeParse(body);
      setErrors(result.success ? {} : issuesFromZod(result.error));
      return result.success ? result.data : undefined;
    },
    [schema],
  );

  /**
   * Shows a server problem: its field errors under their fields (returns true), or, when it names
   * no field, keeps it as the form error (returns false, so the caller may still choose a toast).
   */
  const applyServerError = useCallback((error: unknown): boolean => {
    const issues = issuesFromProblem(error);
    if (!issues) {
      setFormError(error);
      return false;
    }
    setErrors(issues);
    return true;
  }, []);

  const reset = useCallback((next: V) => {
    setValues(next);
    setErrors({});
    setFormError(undefined);
  }, []);

  return { values, setValue, errors, setErrors, formError, setFormError, validate, applyServerError, reset };
}
