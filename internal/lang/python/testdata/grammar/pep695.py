def f[T: int, *Ts, **P](x: T) -> T:
    return x
class C[T](Base[T]):
    pass
type Alias[T] = list[T]
