if (n := len(a)) > 10:
    print(n)
