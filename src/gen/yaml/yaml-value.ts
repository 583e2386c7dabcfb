/** A value YAML documents are written from: what JSON can hold. */
export type YamlValue =
  null | boolean | number | string | readonly YamlValue[] | { readonly [key: string]: YamlValue | undefined };
