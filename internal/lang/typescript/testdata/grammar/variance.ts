export interface I<in T, out U = unknown, in out V> { f(t: T): U }
class C<
  /** note */
  out Shape extends object = {},
> {}
