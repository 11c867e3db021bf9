import { ApiError } from '@palisade/api-client';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useZodForm, withoutField } from './use-zod-form';

const Schema = z.object({
  name: z.string().min(1, { error: 'required' }),
  ips: z.array(z.string().min(1, { error: 'required' })),
});
const problem = (errors?: { path: string; code: string; message: string }[]) =>
  new ApiError(400, { title: 'Error', code: errors ? 'validation.failed' : 'internal', ...(errors ? { errors } : {}) });

describe('useZodForm error lifecycle', () => {
  it('editing a list field clears its items\' errors ("Field required" under ips.0 goes once ips changes)', () => {
    const { result } = renderHook(() => useZodForm(Schema, { name: 'x', ips: [''] }));
    act(() => void result.current.validate(result.current.values));
    expect(Object.keys(result.current.errors)).toEqual(['ips.0']);
    act(() => result.current.setValue('ips', ['10.0.0.2']));
    expect(result.current.errors).toEqual({});
  });

  it('a new submit starts clean: a server error from the last attempt does not linger', () => {
    const { result } = renderHook(() => useZodForm(Schema, { name: 'x', ips: [] }));
    act(() => void result.current.applyServerError(problem([{ path: 'name', code: 'name_taken', message: 'taken' }])));
    expect(result.current.errors.name?.code).toBe('name_taken');
    act(() => void result.current.validate(result.current.values));
    expect(result.current.errors).toEqual({});
  });

  it('a problem without fields is the form error, once, cleared on edit and on the next submit', () => {
    const { result } = renderHook(() => useZodForm(Schema, { name: 'x', ips: [] }));
    let applied = true;
    act(() => {
      applied = result.current.applyServerError(problem());
    });
    expect(applied).toBe(false);
    expect(result.current.formError).toBeInstanceOf(ApiError);
    expect(result.current.errors).toEqual({});
    act(() => result.current.setValue('name', 'y'));
    expect(result.current.formError).toBeUndefined();
    act(() => void result.current.applyServerError(problem()));
    act(() => void result.current.validate(result.current.values));
    expect(result.current.formError).toBeUndefined();
  });

  it("withoutField keeps other fields' errors and does not confuse prefixes", () => {
    const errors = { ip: { code: 'a' }, 'ips.0': { code: 'b' }, ips: { code: 'c' } };
    expect(withoutField(errors, 'ips')).toEqual({ ip: { code: 'a' } });
  });
});
