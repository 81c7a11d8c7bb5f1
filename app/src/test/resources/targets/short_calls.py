"""A loop calling one short function over and over: each call is a new frame at the same address,
and a walk rarely finds the loop itself between two calls."""


def short():
    return sum(range(3000))


def main():
    print("READY", flush=True)
    while True:
        short()


main()
