/** A JSON value, as `default`, `example` and `enum` markers carry them. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The type of one marker argument, in controller-gen's argument grammar:
 * - `int`, `number`, `bool`, `string` (quoted with `"` or backticks, or bare up to `,`/`;`);
 * - `any`: guessed from the text (bool, int, number, `{a,b}` list, `{k: v}` map, `a;b` list, string);
 * - `json`: the rest of the marker parsed as JSON (the `+default=` form);
 * - `{ list: T }`: `a;b;c` or `{a,b,c}`; `{ map: T }`: `{key: value, ...}`.
 */
export type ArgumentType = 'int' | 'number' | 'bool' | 'string' | 'any' | 'json' | ListArgument | MapArgument;

export interface ListArgument {
  readonly list: ArgumentType;
}

export interface MapArgument {
  readonly map: ArgumentType;
}

/** The TypeScript type of a parsed argument of type `T` (`Depth` stops the recursion on the open union). */
export type ArgumentValue<T extends ArgumentType, Depth extends unknown[] = []> = Depth['length'] extends 3
  ? JsonValue
  : T extends 'int' | 'number'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'string'
        ? string
        : T extends 'any' | 'json'
          ? JsonValue
          : T extends { readonly list: infer I extends ArgumentType }
            ? ArgumentValue<I, [...Depth, unknown]>[]
            : T extends { readonly map: infer I extends ArgumentType }
              ? Record<string, ArgumentValue<I, [...Depth, unknown]>>
              : never;

/** How an argument is written in help and error messages, e.g. `[]string`. */
export function describeArgumentType(type: ArgumentType): string {
  if (typeof type === 'string') return type;
  if ('list' in type) return `[]${describeArgumentType(type.list)}`;
  return `map[string]${describeArgumentType(type.map)}`;
}
