import type { FieldError } from '../errors/ninefold-error';
import type { ParamType } from './types';

/** A path parameter parsed to its declared type. */
export type PathParamValue = string | number | boolean;

/**
 * One `{param}` of an address, parsed to its declared type, or why it is not one: shared by the
 * custom calls (REST) and the custom routes (pages), which declare parameters alike.
 */
export function parsePathParam(name: string, type: ParamType, raw: string): PathParamValue | FieldError {
  switch (type) {
    case 'integer': {
      const n = /^-?\d{1,16}$/.test(raw) ? Number(raw) : NaN;
      return Number.isSafeInteger(n)
        ? n
        : { field: name, code: 'invalid_param', message: `The path parameter "${name}" must be a whole number.` };
    }
    case 'boolean':
      return raw === 'true'
        ? true
        : raw === 'false'
          ? false
          : { field: name, code: 'invalid_param', message: `The path parameter "${name}" must be true or false.` };
    case 'text':
      return raw.length <= 1000 ? raw : { field: name, code: 'invalid_param', message: `The path parameter "${name}" is too long.` };
  }
}
