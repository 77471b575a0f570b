export function f<const T extends readonly unknown[]>(...xs: T): T { return xs }
type M<T> = { [K in keyof T as `get${string & K}`]: () => T[K] };
