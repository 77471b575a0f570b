def g(a, /, b, *, c=1, **kw): pass
lambda x, *y, **z: 0
