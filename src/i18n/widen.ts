/** A dictionary's shape with its words widened to string, so every locale fills the same keys with its own words. */
export type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
