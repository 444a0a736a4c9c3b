/** A deep partial of a JSON-like type: what `overrides` may hold (arrays merge element by element). */
export type DeepPartial<T> =
  T extends ReadonlyArray<infer U>
    ? Array<DeepPartial<U> | undefined>
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> | null }
      : T;
