match x:
    case [1, *rest]:
        pass
    case {'a': b, **kw}:
        pass
    case Point(x=0) | None:
        pass
    case _:
        pass
