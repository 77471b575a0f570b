x = f"{a['k']!r:>10} {b:{w}}"
y = f"{x["a"]}"
z = f'{"nested" + f"{1}"}'
