async def f():
    async with a as b, c:
        await x
    async for i in y:
        yield i
