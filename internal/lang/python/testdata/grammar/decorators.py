@a.b(c)
@d
class E:
    @property
    def f(self): ...
