import { useCallback, useState } from 'react';
import type { z } from 'zod';
import { type FieldIssues, issuesFromProblem, issuesFromZod } from './field-errors';

type Values = Record<string, unknown>;

/**
 * A small form state hook around a contracts schema: the same schema the API validates with
 * checks the form before submit (STYLE habit 1); server field errors land on the same fields.
 */
export function useZodForm<S extends z.ZodType, V extends Values>(schema: S, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldIssues>({});

  const setValue = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      if (!e[name as string]) return e;
      const { [name as string]: _removed, ...rest } = e;
      return rest;
    });
  }, []);

  /** Parses `toBody(values)`; on failure shows the issues and returns undefined. */
  const validate = useCallback(
    (body: unknown): z.output<S> | undefined => {
      const result = schema.safeParse(body);
      if (result.success) return result.data;
      setErrors(issuesFromZod(result.error));
      return undefined;
    },
    [schema],
  );

  /** Applies a server problem's field errors; returns true when there were any. */
  const applyServerError = useCallback((error: unknown): boolean => {
    const issues = issuesFromProblem(error);
    if (!issues) return false;
    setErrors(issues);
    return true;
  }, []);

  const reset = useCallback((next: V) => {
    setValues(next);
    setErrors({});
  }, []);

  return { values, setValue, errors, setErrors, validate, applyServerError, reset };
}
