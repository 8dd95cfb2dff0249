import { describeValue, isString, type Issues, type Symbols } from './context';

/** An `error` naming the refusal's code (rules, `uniqueWhen`): built in or declared under `errors`. */
export function checkRefusalCode(value: unknown, path: string, symbols: Symbols, issues: Issues): void {
  if (value === undefined) return;
  if (!(isString(value) && symbols.errorCodes.has(value))) {
    issues.add(path, `unknown error code ${describeValue(value)} (not built in, not under errors)`);
  }
}
